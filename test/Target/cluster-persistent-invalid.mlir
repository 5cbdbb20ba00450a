// RUN: tile-opt %s --tile-to-ptx="chip=sm_90 tma=true cluster=2 persistent-blocks=132" -verify-diagnostics

// A persistent block runs as many tiles as the grid gives it, which need not
// be as many as its partner's: the cluster barriers would not pair up.

// expected-error @below {{cluster=2 and persistent-blocks do not combine: the blocks of a cluster must run the same tiles' steps in step}}
module {
}
