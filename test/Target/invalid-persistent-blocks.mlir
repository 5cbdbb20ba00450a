// RUN: tile-opt %s --tile-to-ptx="chip=sm_90 persistent-blocks=-4" -verify-diagnostics

// persistent-blocks=0 means no persistent blocks; a negative count used to
// mean the same, silently.

// expected-error @below {{persistent-blocks=-4 is negative: give the number of blocks, or 0 for none}}
module {
}
