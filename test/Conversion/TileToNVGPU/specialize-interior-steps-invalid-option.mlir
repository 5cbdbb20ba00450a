// RUN: tile-opt %s --tile-specialize-interior-steps="tma=on" -verify-diagnostics

// A value of the tma option that does not parse names the option and the
// pass (tile::initializePassOptions).
// expected-error@unknown {{invalid value 'on' for option 'tma' of tile-specialize-interior-steps}}
module {
}
