#!/bin/sh
# Stands in for tile-run in test/Bench/check-random.test. Called as
# `tile-run --ptx KERNEL --launch L [--shape NAME=RxC ...] --check`, it
# appends its arguments after --launch L to KERNEL.args; what KERNEL's first
# line says is what it does: pass, fail (a failed check), hang, or
# "fail-at NAME=RxC" (fails where that --shape is given, else passes).
kernel=$2
shift 4
echo "$*" >>"$kernel.args"
line=$(head -n 1 "$kernel")
case $line in
  pass*) echo "check vs cuBLAS: PASS" ;;
  fail-at*)
    for arg; do
      if [ "$arg" = "${line#fail-at }" ]; then
        echo "check vs cuBLAS: 3 of 1 outside: FAIL"
        exit 1
      fi
    done
    echo "check vs cuBLAS: PASS" ;;
  fail*) echo "check vs cuBLAS: 7 of 4096 outside: FAIL"; exit 1 ;;
  hang*) exec sleep 30 ;;
esac
