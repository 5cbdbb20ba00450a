#!/bin/sh
# Stands in for tile-run in test/Bench/check-random.test. Called as
# `tile-run --ptx KERNEL --launch L --check`; what KERNEL's first line says
# is what it does: pass, fail (a failed check) or hang.
case $(head -n 1 "$2") in
  pass*) echo "check vs cuBLAS: PASS" ;;
  fail*) echo "check vs cuBLAS: 7 of 4096 outside: FAIL"; exit 1 ;;
  hang*) exec sleep 30 ;;
esac
