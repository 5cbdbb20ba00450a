// RUN: tile-opt %s --tile-print-schedule=trip-count=9223372036854775807 -verify-diagnostics

// One line per time step: a trip count past 4096 would print without end
// (and trip-count + depth - 1 would overflow).
// expected-error @+1 {{trip-count=9223372036854775807 is more than the 4096 iterations a timeline shows}}
module {
}
