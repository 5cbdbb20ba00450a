#!/bin/sh
# Stands in for a tile-opt that does not finish, in
# test/Bench/compile-time.test.
exec sleep 30
