"""Run by tests/test_to_torch_ddp.py: a model whose hidden layer is a pycg
rule through pycg.to_torch, trained 5 SGD steps under
DistributedDataParallel by 2 processes (gloo on 127.0.0.1, each on half
the batch), then by one process on the whole batch; prints the largest
difference of the weights as one JSON line."""
import json
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

import pycg
from pycg import ops


@pycg.custom_gradient
def log1pexp(x):
    e = ops.exp(x)
    return ops.log(1 + e), lambda upstream: upstream * (1 - 1 / (1 + e))


def layer(x, w, b):
    return log1pexp(ops.matmul(x, w) + b)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.w = torch.nn.Parameter(torch.randn(4, 6, generator=g) * 0.5)
        self.b = torch.nn.Parameter(torch.zeros(6))
        self.out = torch.nn.Parameter(torch.randn(6, 1, generator=g) * 0.5)
        self.layer = pycg.to_torch(layer)

    def forward(self, x):
        return self.layer(x, self.w, self.b) @ self.out


def batch():
    g = torch.Generator().manual_seed(1)
    x = torch.randn(16, 4, generator=g)
    return x, torch.sin(x.sum(1, keepdim=True))


def train(net, x, y):
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(5):
        opt.zero_grad()
        torch.nn.functional.mse_loss(net(x), y).backward()
        opt.step()


def worker(rank, port, path):
    pycg.config.set_backend("torch")
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}",
                            rank=rank, world_size=2)
    net = torch.nn.parallel.DistributedDataParallel(Net())
    x, y = batch()
    train(net, x[rank * 8:(rank + 1) * 8], y[rank * 8:(rank + 1) * 8])
    if rank == 0:
        torch.save([p.detach() for p in net.module.parameters()], path)
    # both ranks leave together: a rank that tears gloo down while its peer
    # still talks to it dies in gloo's threads (SIGABRT, "terminate called
    # without an active exception", seen on busy cores)
    dist.barrier()
    dist.destroy_process_group()


def main():
    torch.set_num_threads(1)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = sys.argv[1]
    mp.spawn(worker, args=(port, path), nprocs=2, join=True)
    pycg.config.set_backend("torch")
    whole = Net()
    start = [p.detach().clone() for p in whole.parameters()]
    train(whole, *batch())
    ddp = torch.load(path)
    print(json.dumps({
        "difference": max(float((a - b).abs().max())
                          for a, b in zip(ddp, whole.parameters())),
        "moved": max(float((a - b).abs().max())
                     for a, b in zip(ddp, start))}))


if __name__ == "__main__":
    main()
