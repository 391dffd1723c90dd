"""The tests of each op topic of pycg/ops, one file per topic."""
