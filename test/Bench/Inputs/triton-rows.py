"""Runs bench/run_h200.py's Triton (mma.sync) rows against the stand-in in
fake-triton/ and prints each row's status: test/Bench/triton-rows.test."""
import argparse
import os
import sys

sys.path.insert(0, sys.argv[1])
import run_h200  # noqa: E402

run_h200.HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "fake-triton")
opts = argparse.Namespace(seed=0, run_timeout=float(sys.argv[2]))
seconds_left = None if sys.argv[3] == "none" else float(sys.argv[3])


def add(kernel, c, **kw):
    print(kernel, c["name"], kw.get("status"), kw.get("tflops"),
          kw.get("error", ""))


run_h200.run_triton_mma_sync(add, 200.0, opts, seconds_left)
