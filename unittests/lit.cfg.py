# -*- Python -*-
# lit runs every GoogleTest case of the unit-test binaries as its own test.

import os

import lit.formats

config.name = "TILE-Unit"
config.test_format = lit.formats.GoogleTest(".", "UnitTests")
config.test_source_root = os.path.join(config.tile_obj_root, "unittests")
config.test_exec_root = config.test_source_root
