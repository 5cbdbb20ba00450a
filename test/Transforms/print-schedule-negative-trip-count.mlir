// RUN: tile-opt %s --tile-print-schedule=trip-count=-1 -verify-diagnostics

// A negative count of iterations to show is refused, not taken for the
// default (0).
// expected-error @+1 {{trip-count=-1 is negative: give the iterations to show, or 0 for the default}}
module {
}
