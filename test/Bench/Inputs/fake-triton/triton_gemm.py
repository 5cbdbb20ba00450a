#!/usr/bin/env python3
"""A stand-in for bench/triton_gemm.py --mma-sync (test/Bench/triton-rows.test):
prints a result line per configuration, 100 TFLOP/s each, but hangs on the
configuration whose name holds $FAKE_TRITON_HANG."""
import json
import os
import sys
import time

configs = json.loads(sys.argv[sys.argv.index("--configs") + 1])
hang = os.environ.get("FAKE_TRITON_HANG", "never")
for c in configs:
    if hang in c["name"]:
        time.sleep(60)
    print(json.dumps(dict(name=c["name"], tflops=100.0, check="pass",
                          max_abs_err=0.0, instruction="mma.sync")),
          flush=True)
