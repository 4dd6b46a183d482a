"""``python -m dnnl.benchdnn``: grammar, batch files, results and summary."""
import io
import os
import re

import pytest

from dnnl.benchdnn import main
from dnnl.benchdnn import parser as P
from dnnl.benchdnn import reorder as REO
from dnnl.benchdnn import resampling as RES

pytestmark = [pytest.mark.compiled, pytest.mark.package]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUTS = os.path.join(ROOT, "tests", "inputs")
SUMMARY = re.compile(r"tests:(\d+) passed:(\d+) skipped:(\d+) mistrusted:(\d+) "
                     r"unimplemented:(\d+) invalid_arguments:(\d+) failed:(\d+) listed:(\d+)")


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    text = out.getvalue()
    m = SUMMARY.search(text)
    counts = dict(zip(("tests", "passed", "skipped", "mistrusted", "unimplemented",
                       "invalid_arguments", "failed", "listed"),
                      map(int, m.groups()))) if m else None
    return rc, text, err.getvalue(), counts


# ---------------------------------------------------------------- grammar
def test_tokenize_comments_and_continuations():
    text = ("--reset # a comment --sdt=s8\n"
            "--attr-scales=src:common:2, \\\n"
            "   src:per_dim_0 \\\n"
            "   # comment between does not cancel it\n"
            "   ,dst:per_dim_1\n"
            "2x8x8 # special\n"
            "a#b\n")
    assert P.tokenize(text) == ["--reset",
                                "--attr-scales=src:common:2,src:per_dim_0,dst:per_dim_1",
                                "2x8x8", "a#b"]


@pytest.mark.parametrize("tag,nd,exp", [
    ("abx", 2, "ab"), ("abx", 5, "abcde"), ("axb", 4, "acdb"), ("xba", 3, "cba"),
    ("aBx16b", 4, "aBcd16b"), ("ABx16a16b", 3, "ABc16a16b"), ("xcab", 5, "decab"),
    ("abxc", 4, "abdc"), ("nChw16c", 4, "aBcd16b"), ("OIhw4i16o4i", 4, "ABcd4b16a4b"),
    ("gOIhw16i16o", 5, "aBCde16c16b"), ("hwio", 4, "cdba"), ("any", 4, "any"),
    ("axb", -1, "acb"), ("Abx16a", -1, "Abc16a")])
def test_tags(tag, nd, exp):
    assert P.normalize_tag(tag, nd) == exp


@pytest.mark.parametrize("text,printed,dims", [
    ("mb1ic8_ih6oh6_iw24ow24", "mb1ic8ih6iw24oh6ow24", (8, 6, 24, 6, 24)),
    ("ic8iw6ow12", "ic8iw6ow12", (8, 1, 6, 1, 12)),
    ("ic16_id6od3", "ic16id6od3", (16, 6, 6, 3, 3)),
    ("mb2ic16_ih5oh3_iw10ow11", "ic16ih5iw10oh3ow11", (16, 5, 10, 3, 11)),
    ("ic8_id2ih4iw6_od4oh8ow12", "ic8id2ih4iw6od4oh8ow12", (8, 4, 6, 8, 12)),
    ('mb1ic256ih34iw25oh68ow50n"maskrcnn1"', 'mb1ic256ih34iw25oh68ow50n"maskrcnn1"',
     (256, 34, 25, 68, 50)),
    ("ic4ih5oh10", "ic4ih5oh10", (4, 5, 5, 10, 10))])
def test_resampling_descriptors(text, printed, dims):
    d = RES.parse_resampling_desc(text)
    assert str(d) == printed
    assert (d.ic, d.ih, d.iw, d.oh, d.ow) == dims


@pytest.mark.parametrize("bad", ["ic8", "iw6ow12", "ic8iw6", "_ic8iw6ow6", "ic8iw6ow6x"])
def test_bad_resampling_descriptors(bad):
    with pytest.raises(P.ParseError):
        RES.parse_resampling_desc(bad)


def test_reorder_descriptor_and_attrs():
    assert REO.parse_reorder_dims('2x16x3x4_n"conv1"') == ([2, 16, 3, 4], '"conv1"')
    assert REO.parse_reorder_dims("17") == ([17], None)
    q = P.parse_quant("src:per_dim_1+dst:common:0.5+src:per_tensor:bf16:1x16", False)
    assert [(x.arg, x.policy, x.value, x.dt, x.groups) for x in q] == [
        (1, "per_dim_1", 1.0, "f32", ()), (17, "common", 0.5, "f32", ()),
        (1, "per_tensor", 1.0, "bf16", (1, 16))]
    assert P.split_plus("sum:1e+5+relu") == ["sum:1e+5", "relu"]
    po = P.parse_post_ops("sum:0.5+add:f32:per_tensor+linear:1.5:-1.25:0.5")
    assert [(p.kind, p.alg) for p in po] == [("sum", "sum"), ("binary", "add"),
                                               ("eltwise", "linear")]
    assert (po[2].alpha, po[2].beta) == (1.5, -1.25)


# ---------------------------------------------------------------- runs
def test_cartesian_product_and_repro():
    rc, out, _, c = run("--reorder", "--sdt=f32,s8", "--ddt=f32,u8", "--dtag=abx,aBx16b",
                        "2x17x3x4")
    assert rc == 0 and c["tests"] == 8 and c["passed"] == 8
    assert "0:PASSED (" in out
    assert "__REPRO: --reorder --sdt=s8 --ddt=u8 --stag=abx --dtag=aBx16b 2x17x3x4" in out


def test_vector_option_empty_restores_default():
    rc, out, _, c = run("--reorder", "--attr-post-ops=,sum:0.5", "--ddt=s8", "2x3x4")
    assert c["tests"] == 2
    assert "--attr-post-ops=sum:0.5 2x3x4" in out


def test_resampling_problems_pass():
    rc, out, _, c = run("--resampling", "--dir=FWD_D,BWD_D", "--alg=nearest,linear",
                        "--tag=axb", "mb2ic16_ih5oh3_iw10ow11", "ic3iw5ow35")
    assert rc == 0 and c["passed"] == 8, out


def test_skips_and_unimplemented():
    rc, out, _, c = run("--reorder", "--sdt=s32", "--ddt=bf16", "2x3", "--sdt=s8",
                        "--ddt=s8", "--oflag=s8s8_comp:1", "2x3")
    assert c["skipped"] == 1 and c["unimplemented"] == 1 and rc != 0
    assert "SKIPPED (Case not supported)" in out
    rc, out, _, c = run("--reorder", "--skip-impl=simple", "2x3")
    assert c["skipped"] == 1 and "Skip-impl option hit" in out and rc == 0


def test_failure_detected(monkeypatch):
    from dnnl.testing import reorder as TR
    orig = TR.reference_reorder
    monkeypatch.setattr(TR, "reference_reorder", lambda *a, **k: orig(*a, **k) + 1)
    rc, out, _, c = run("--reorder", "--ddt=f32", "2x3x4")
    assert rc == 1 and c["failed"] == 1
    assert "FAILED" in out and "errors:" in out and "Failed cases summary" in out


def test_batch_files_nested_relative_to_includer(tmp_path, monkeypatch):
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "shapes").write_text("2x3x4 # a shape\n1x5\n")
    (sub / "main").write_text("--reset\n--ddt=f32,\\\n  s8\n--batch=shapes\n")
    monkeypatch.chdir(tmp_path)
    rc, out, _, c = run("--reorder", "--batch=sub/main")
    assert rc == 0 and c["tests"] == 4


def test_match_filters_descriptors():
    rc, out, _, c = run("--resampling", "--match=.*up.*", 'ic3iw5ow35n"up"',
                        'ic3iw35ow5n"down"')
    assert c["tests"] == 1 and "n\"up\"" in out


def test_errors_exit_2():
    assert run("--reorder", "--bogus=1", "2x3")[0] == 2
    assert run("--reorder", "--stag=Abx3a", "2x3")[0] == 2   # not an enum tag
    assert run("--reorder", "--allow-enum-tags-only=0", "--stag=Abx3a", "2x3")[0] == 0
    assert run("--convolution")[0] == 2


def test_a_misspelt_tag_gets_the_close_names():
    """A tag that is no abc-style tag at all is not helped by
    --allow-enum-tags-only=0: the message names the close enumerated tags."""
    rc, out, err, _ = run("--reorder", "--dtag=nChw16", "2x16x3x3")
    text = out + err
    assert rc == 2 and "did you mean 'nChw16c'" in text
    assert "allow-enum-tags-only" not in text
    rc, out, err, _ = run("--reorder", "--stag=Abx3a", "2x3")
    assert rc == 2 and "use --allow-enum-tags-only=0" in out + err


def test_list_mode_and_warning():
    rc, out, _, c = run("--mode=L", "--reorder", "--ddt=s8,u8", "2x3", "--ddt=f32")
    assert c["listed"] == 2
    assert "No problem found for a given option!" in out


def test_perf_mode_template():
    rc, out, _, c = run("--mode=P", "--fix-times-per-prb=3", "--reorder",
                        "--perf-template=%prb%,%-time%,%0time%,%-Gbw%", "2x16x8x8")
    assert rc == 0
    assert "Template entries: %prb%,%-time%,%0time%,%-Gbw%" in out
    assert "prb,min_time,avg_time,min_Gbw" in out
    line = [x for x in out.splitlines() if x.startswith("--mode=P --reorder")][0]
    assert len(line.split(",")) == 4
    assert "total perf: min(ms):" in out
    rc, out, _, _ = run("--mode=P", "--fix-times-per-prb=2", "--resampling", "ic4ih5oh10")
    assert "perf,engine,impl,name,prb,Gops,max_ctime,min_time,min_Gflops,avg_time,avg_Gflops" \
        in out
    assert "perf,cpu,ref:any,,--mode=P --resampling ic4ih5oh10,0," in out


def test_progress_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    out, err = io.StringIO(), Tty()
    assert main(["--reorder", "--ddt=f32,s8", "2x3"], out, err) == 0
    assert "\r[" in err.getvalue()


@pytest.mark.parametrize("driver,name", [("reorder", "test_reorder_small"),
                                         ("resampling", "test_resampling_small")])
def test_our_small_batch_files(driver, name):
    rc, out, _, c = run("--" + driver, "--batch=" + os.path.join(INPUTS, driver, name))
    assert rc == 0, "\n".join(x for x in out.splitlines() if "PASSED" not in x)
    assert c["failed"] == c["unimplemented"] == c["invalid_arguments"] == 0
    assert c["passed"] > 100


# ---------------------------------------------------------------- drivers
def test_drivers_register_themselves():
    from dnnl.benchdnn.driver import DRIVERS, Driver
    main(["--help"], io.StringIO(), io.StringIO())          # loads the driver modules
    assert {"--reorder", "--resampling"} <= set(DRIVERS)
    assert all(issubclass(d, Driver) for d in DRIVERS.values())


def test_harness_runs_any_driver_table():
    """common.Bench knows no driver by name: it runs whatever it is given."""
    from dnnl.benchdnn import common
    from dnnl.benchdnn.driver import Driver

    class Toy(Driver):
        name = "toy"
        vector_options = (("x", "1"),)
        help = "toy options: --x="

        def expand(self, token):
            return [{"x": x, "token": token} for x in self.opts["x"]]

        def repro(self, prb):
            return "--x=%s %s" % (prb["x"], prb["token"])

        def run(self, prb, res):
            res.state = common.PASSED if prb["token"] == "ok" else common.FAILED

    out, err = io.StringIO(), io.StringIO()
    rc = common.Bench({"--toy": Toy}, out, err).main(["--toy", "--x=1,2", "ok", "bad"])
    text = re.sub(r"\(\d+ ms\)", "(T ms)", out.getvalue())
    assert rc == 1
    assert "0:PASSED (T ms) __REPRO: --toy --x=1 ok" in text
    assert "2:FAILED (T ms) __REPRO: --toy --x=1 bad" in text
    assert "tests:4 passed:2 skipped:0 mistrusted:0 unimplemented:0 invalid_arguments:0 " \
           "failed:2 listed:0" in text
    rc = common.Bench({"--toy": Toy}, out, err).main(["--reorder", "2x3"])
    assert rc == 2 and "this benchdnn has --toy" in err.getvalue()
