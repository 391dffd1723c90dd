"""What the tests share and are not tests themselves: case tables (the VJP
and value cases, Keras' inputs, hostile arguments), oracles (the NumPy
convolution reference, the Keras sweep and its table of differences),
the R bridge helpers and the scripts that tests run in fresh processes."""
