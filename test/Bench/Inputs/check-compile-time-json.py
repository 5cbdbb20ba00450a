"""Checks the records that bench/compile_time.py wrote in
test/Bench/compile-time.test: a compiled kernel and a refused one."""
import json
import sys

d = json.load(open(sys.argv[1]))
assert d["repeat"] == 2 and d["commit"] and d["cores"] >= 1, d
ok, refused = d["records"]
assert ok["status"] == "ok", ok
assert len(ok["runs"]) == 2 and all(t > 0 for t in ok["runs"]), ok
assert min(ok["runs"]) <= ok["seconds"] <= max(ok["runs"]), ok
assert ok["max_rss_mib"] > 1, ok
assert 0 < ok["binary_share"] < 1, ok
# The passes that nest no other: tile-to-ptx, which runs the others as a
# pipeline of its own, is not one of them.
top = dict(ok["top_passes"])
assert "GpuModuleToBinaryPass" in top and "TileToPTX" not in top, top
assert all(seconds > 0 for seconds in top.values()), top
assert refused["status"] == "compile-error" and "error:" in refused["error"]
print("records ok")
