"""sqlauc.plot_roc / plot_pr and the curve reduction used for plotting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from datagen import make_data
from reference import collinear_points

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from PIL import Image

import sqlauc
from sqlauc import plot

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_plot_roc_one_curve_returns_axes_with_auc_in_legend():
    data = make_data(3000, 400, kind="round2")
    curve = sqlauc.roc_curve(None, data.frame)
    ax = sqlauc.plot_roc(curve, label="model")
    assert isinstance(ax, Axes)
    auc = sqlauc.auc(None, data.frame)
    assert legend_texts(ax) == [f"model (AUC = {auc:.4f})", "chance (AUC = 0.5)"]
    # the curve's points, less those collinear with their neighbours (scikit-learn's
    # drop_intermediate keeps some: a line through them draws the same)
    drawn = curve.drop(curve.index[collinear_points(curve["fp"], curve["tp"])])
    line = ax.get_lines()[0]
    np.testing.assert_array_equal(line.get_xdata(), drawn["fpr"])
    np.testing.assert_array_equal(line.get_ydata(), drawn["tpr"])
    diagonal = ax.get_lines()[-1]
    assert list(diagonal.get_xdata()) == [0, 1] and list(diagonal.get_ydata()) == [0, 1]
    assert ax.get_xlabel() == "False positive rate"


def test_plot_roc_several_models_on_a_given_axes():
    data = make_data(3001, 400, kind="continuous")
    frame = data.frame.assign(other=-data.frame["score"])
    curves = {
        "a": sqlauc.roc_curve(None, frame, score="score"),
        "b": sqlauc.roc_curve(None, frame, score="other", drop_intermediate=False),
    }
    _, ax = plt.subplots()
    assert sqlauc.plot_roc(curves, ax=ax) is ax
    texts = legend_texts(ax)
    assert [t.split(" (")[0] for t in texts] == ["a", "b", "chance"]
    auc_a = sqlauc.auc(None, frame)
    assert texts[0] == f"a (AUC = {auc_a:.4f})"
    assert texts[1] == f"b (AUC = {1 - auc_a:.4f})"
    # a list of frames is numbered
    ax2 = sqlauc.plot_roc(list(curves.values()))
    assert legend_texts(ax2)[:2] == [
        texts[0].replace("a ", "ROC 1 "),
        texts[1].replace("b ", "ROC 2 "),
    ]


def test_plot_pr_steps_with_average_precision_and_prevalence():
    data = make_data(3002, 500, kind="round1", weights="int")
    curve = sqlauc.precision_recall_curve(None, data.frame, weight="w")
    ax = sqlauc.plot_pr(curve)
    ap = sqlauc.average_precision(None, data.frame, weight="w")
    texts = legend_texts(ax)
    assert texts[0] == f"PR (AP = {ap:.4f})"
    prevalence = data.w[data.y].sum() / data.w.sum()
    assert texts[1] == f"chance ({prevalence:.4f})"
    assert ax.get_lines()[0].get_drawstyle() == "steps-post"


def test_plot_rejects_other_data():
    with pytest.raises(TypeError, match="DataFrame"):
        sqlauc.plot_roc(42)
    with pytest.raises(ValueError, match=r"parameter of plot_roc\(\) .* without 'fpr'"):
        sqlauc.plot_roc(pd.DataFrame({"precision": [1.0], "recall": [0.0]}))
    with pytest.raises(ValueError, match=r"parameter of plot_pr\(\) .* without 'precision'"):
        sqlauc.plot_pr(pd.DataFrame({"fpr": [0.0], "tpr": [0.0]}))


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    frame = pd.DataFrame({"fpr": [0.0, 1.0], "tpr": [0.0, 1.0]})
    with pytest.raises(ImportError, match=r"pip install 'sqlauc\[plot\]'"):
        sqlauc.plot_roc(frame)


def test_import_sqlauc_does_not_import_matplotlib():
    code = "import sys, sqlauc; print('matplotlib' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    ).stdout
    assert out.strip() == "False"


def test_collinear_mask_is_lossless_and_exact():
    x = np.array([0, 1, 2, 3, 3, 3, 4, 6, 8])
    y = np.array([0, 1, 2, 3, 4, 5, 5, 6, 7])
    keep = plot.collinear_mask(x, y)
    assert keep.tolist() == [True, False, False, True, False, True, True, False, True]
    # the kept points draw the same polyline: every dropped point lies on a kept segment
    kx, ky = x[keep], y[keep]
    for xi, yi in zip(x[~keep], y[~keep], strict=True):
        on_segment = [
            (bx - ax_) * (yi - ay) == (by - ay) * (xi - ax_)
            and min(ax_, bx) <= xi <= max(ax_, bx)
            and min(ay, by) <= yi <= max(ay, by)
            for ax_, ay, bx, by in zip(kx[:-1], ky[:-1], kx[1:], ky[1:], strict=True)
        ]
        assert any(on_segment)


def test_thin_mask_bounds_points_and_keeps_the_shape():
    n = 1_000_000
    t = np.linspace(0, 1, n)
    x, y = t, np.sqrt(t)  # a concave ROC-like curve
    keep = plot.thin_mask(x, y, max_points=2000)
    assert keep[0] and keep[-1]
    assert 1000 <= keep.sum() <= 2002
    # every original point is within 1/1000 of an axis of the drawn polyline (vertically:
    # the curve is a function of x)
    drawn = np.interp(x, x[keep], y[keep])
    assert np.max(np.abs(drawn - y)) < 2 / 2000
    # short curves are untouched
    assert plot.thin_mask(x[:500], y[:500]).all()


def test_plot_of_a_million_point_curve_draws_at_most_max_points():
    n = 1_000_000
    rng = np.random.default_rng(3)
    fp = np.concatenate([[0.0], np.cumsum(rng.integers(1, 3, n - 1)).astype(float)])
    tp = np.concatenate([[0.0], np.cumsum(rng.integers(1, 3, n - 1)).astype(float)])
    frame = pd.DataFrame({"fpr": fp / fp[-1], "tpr": tp / tp[-1], "tp": tp, "fp": fp})
    ax = sqlauc.plot_roc(frame)
    drawn = len(ax.get_lines()[0].get_xdata())
    assert 2 <= drawn <= plot.MAX_POINTS + 2
    assert legend_texts(ax)[0] == f"ROC (AUC = {plot.trapezoid_auc(frame):.4f})"


def test_run_mask_drops_only_points_inside_axis_aligned_runs():
    recall = np.array([1.0, 1.0, 1.0, 0.5, 0.5, 0.25, 0.0])
    precision = np.array([0.4, 0.5, 0.6, 0.6, 0.7, 0.9, 1.0])
    assert plot.run_mask(recall, precision).tolist() == [
        True, False, True, True, True, True, True,
    ]  # fmt: skip


def test_figure_is_a_sane_image(tmp_path):
    data = make_data(3003, 2000, kind="round2")
    ax = sqlauc.plot_roc(sqlauc.roc_curve(None, data.frame), label="m")
    path = tmp_path / "roc.png"
    ax.figure.savefig(path, dpi=100)
    with Image.open(path) as image:
        image.verify()
    with Image.open(path) as image:
        width, height = image.size
        assert 300 <= width <= 2000 and 300 <= height <= 2000
        colors = image.convert("RGB").getcolors(maxcolors=1_000_000)
        assert colors is not None and len(colors) > 20  # not blank


# ---------------------------------------------------------------------------------------------
# plot_evaluation


def evaluation_data(days: int, seed: int = 11, n: int = 3000) -> pd.DataFrame:
    """Two tied models with a date, a number, a string slice (with NULLs)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    day = rng.integers(0, days, n)
    return pd.DataFrame(
        {
            "label": y.astype("int64"),
            "a": np.round(rng.normal(size=n) + 0.8 * y, 1),
            "b": np.round(rng.normal(size=n) + 1.1 * y, 1),
            "day": pd.Timestamp("2024-03-01") + pd.to_timedelta(day, "D"),
            "hour": day * 2,
            "country": rng.choice(np.array(["DE", "FR", None], dtype=object), n),
        }
    )


def errorbars(ax):
    """The error-bar containers of ``ax`` by label: (marker x, marker y, bar segments)."""
    out = {}
    for container in ax.containers:
        line, bars = container.lines[0], container.lines[2]
        segments = [np.asarray(s) for b in bars for s in b.get_segments()]
        out[container.get_label()] = (line.get_xdata(), line.get_ydata(), segments)
    return out


def test_plot_evaluation_ordered_numbers_dodged_error_bars():
    data = evaluation_data(5)
    frame = sqlauc.evaluate(None, data, scores=["a", "b"], by="hour")
    ax = sqlauc.plot_evaluation(frame)
    assert legend_texts(ax) == ["a", "b"]
    assert ax.get_xlabel() == "hour" and ax.get_title() == "AUC per hour"
    assert ax.get_ylabel() == "AUC (DeLong interval)"
    bars = errorbars(ax)
    assert list(bars) == ["a", "b"]
    step = plot._dodge(2, 2.0)  # hours 0, 2, 4, ...: the closest slices are 2 apart
    assert step.tolist() == pytest.approx([-0.12, 0.12])
    for offset, model in zip(step, ["a", "b"], strict=True):
        x, y, segments = bars[model]
        mine = frame[frame["model"] == model]
        np.testing.assert_allclose(x, mine["hour"].to_numpy() + offset)
        np.testing.assert_array_equal(y, mine["auc"].to_numpy())
        # one vertical bar per slice from auc_low to auc_high, at the dodged x
        assert len(segments) == len(mine)
        for segment, row in zip(segments, mine.itertuples(), strict=True):
            assert segment[0][0] == segment[1][0] == pytest.approx(row.hour + offset)
            assert sorted([segment[0][1], segment[1][1]]) == pytest.approx(
                [row.auc_low, row.auc_high], abs=1e-15
            )
    # the models' lines are drawn through the points (fmt "-o")
    assert [c.lines[0].get_linestyle() for c in ax.containers] == ["-", "-"]


def test_plot_evaluation_many_dates_draws_bands_and_a_date_axis():
    import matplotlib.dates as mdates

    data = evaluation_data(30)
    frame = sqlauc.evaluate(None, data, scores=["a", "b"], by="day")
    assert frame["day"].nunique() == 30 > plot.MAX_BARS
    ax = sqlauc.plot_evaluation(frame)
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["a", "b"]
    bands = [c for c in ax.collections if c.get_paths()]
    assert len(bands) == 2
    mine = frame[frame["model"] == "b"]
    np.testing.assert_array_equal(lines[1].get_ydata(), mine["auc"].to_numpy())
    np.testing.assert_allclose(lines[1].get_xdata(), mdates.date2num(mine["day"]))
    # each band spans the model's interval
    vertices = bands[1].get_paths()[0].vertices
    assert vertices[:, 1].min() == pytest.approx(mine["auc_low"].min())
    assert vertices[:, 1].max() == pytest.approx(mine["auc_high"].max())
    assert isinstance(ax.xaxis.get_major_formatter(), mdates.ConciseDateFormatter)
    assert not ax.containers  # no error bars


def test_plot_evaluation_categories_and_null_slice():
    data = evaluation_data(3)
    frame = sqlauc.evaluate(None, data, scores=["a", "b"], by="country")
    ax = sqlauc.plot_evaluation(frame)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == ["DE", "FR", "NULL"]
    bars = errorbars(ax)
    assert list(bars) == ["a", "b"]
    xa, xb = bars["a"][0], bars["b"][0]
    np.testing.assert_allclose(xa, [-0.06, 0.94, 1.94])
    np.testing.assert_allclose(xb, [0.06, 1.06, 2.06])
    assert [c.lines[0].get_linestyle() for c in ax.containers] == ["None", "None"]  # points
    # a date slice with a NULL is a category too; several columns are joined
    two = sqlauc.evaluate(None, data, scores=["a", "b"], by=["country", "hour"])
    ax2 = sqlauc.plot_evaluation(two)
    assert ax2.get_xlabel() == "country / hour"
    assert [t.get_text() for t in ax2.get_xticklabels()][:2] == ["DE / 0", "DE / 2"]


def test_plot_evaluation_without_slices_one_point_per_model():
    data = evaluation_data(3)
    frame = sqlauc.evaluate(None, data, scores=["a", "b"])
    ax = sqlauc.plot_evaluation(frame)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]
    assert ax.get_legend() is None and ax.get_xlabel() == "model"
    bars = errorbars(ax)
    assert [bars[m][0].tolist() for m in ("a", "b")] == [[0.0], [1.0]]
    assert [bars[m][1].tolist() for m in ("a", "b")] == [[v] for v in frame["auc"]]


def test_plot_evaluation_without_interval_and_with_a_single_class_slice():
    data = evaluation_data(4)
    data.loc[data["hour"] == 2, "label"] = 1
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        frame = sqlauc.evaluate(None, data, scores=["a", "b"], by="hour", ci=None)
    ax = sqlauc.plot_evaluation(frame)
    assert ax.get_ylabel() == "AUC"
    for container in ax.containers:
        assert container.has_yerr is False
    y = ax.get_lines()[0].get_ydata()
    assert np.isnan(y[1]) and not np.isnan(y).all()  # a gap, not a dropped slice


def test_plot_evaluation_binned_draws_the_certified_bounds():
    # evaluate(method="binned") gives auc_low_bound/auc_high_bound instead of the DeLong
    # interval: they were not drawn (a bare midpoint labelled "AUC", read as exact)
    data = evaluation_data(5)
    frame = sqlauc.evaluate(None, data, scores=["a", "b"], by="hour", method="binned",
                            ci=None, bins=8)  # fmt: skip
    assert (frame["auc_high_bound"] > frame["auc_low_bound"]).all()  # coarse bins: wide
    ax = sqlauc.plot_evaluation(frame)
    assert ax.get_ylabel() == "AUC (binned: certified bounds)"
    bars = errorbars(ax)
    assert list(bars) == ["a", "b"]
    for model in ("a", "b"):
        mine = frame[frame["model"] == model]
        _, y, segments = bars[model]
        np.testing.assert_array_equal(y, mine["auc"].to_numpy())
        assert len(segments) == len(mine)
        for segment, row in zip(segments, mine.itertuples(), strict=True):
            assert sorted([segment[0][1], segment[1][1]]) == pytest.approx(
                [row.auc_low_bound, row.auc_high_bound], abs=1e-15
            )
    # by categories too
    by_country = sqlauc.evaluate(None, data, scores=["a"], by="country", method="binned",
                                 ci=None, bins=8)  # fmt: skip
    segments = errorbars(sqlauc.plot_evaluation(by_country))["a"][2]
    assert [sorted([s[0][1], s[1][1]]) for s in segments] == [
        pytest.approx([r.auc_low_bound, r.auc_high_bound], abs=1e-15)
        for r in by_country.itertuples()
    ]


def test_plot_evaluation_rejects_other_frames():
    frame = pd.DataFrame({"model": ["a"], "auc": [0.5], "auc_low": [0.4]})
    with pytest.raises(sqlauc.InvalidParameterError, match=r"without 'auc_high'"):
        sqlauc.plot_evaluation(frame)
    with pytest.raises(sqlauc.InvalidParameterError, match=r"without 'model'"):
        sqlauc.plot_evaluation(pd.DataFrame({"auc": [0.5]}))
    with pytest.raises(sqlauc.InvalidParameterError, match=r"'frame' parameter of plot_evaluation"):
        sqlauc.plot_evaluation({"model": "a"})


def test_plot_evaluation_refuses_a_compare_frame():
    # compare's frame has 'baseline' before 'model': it was drawn as a slice ("day /
    # baseline") with the models' AUCs, a plot that looks like evaluate's and is not
    frame = sqlauc.compare(None, evaluation_data(3), scores=["a", "b"], by="day")
    with pytest.raises(sqlauc.InvalidParameterError, match=r"sqlauc\.compare"):
        sqlauc.plot_evaluation(frame)
    # a slice column named 'baseline' of an evaluate frame is still a slice
    data = evaluation_data(3).rename(columns={"country": "baseline"})
    ax = sqlauc.plot_evaluation(sqlauc.evaluate(None, data, scores=["a", "b"], by="baseline"))
    assert ax.get_xlabel() == "baseline"


def test_plot_evaluation_png(tmp_path):
    frame = sqlauc.evaluate(None, evaluation_data(7), scores=["a", "b"], by="day")
    ax = sqlauc.plot_evaluation(frame)
    path = tmp_path / "evaluation.png"
    ax.figure.savefig(path, dpi=100)
    with Image.open(path) as image:
        width, height = image.size
        assert width > height and image.convert("RGB").getcolors(maxcolors=1_000_000)


def test_plot_evaluation_names_at_most_max_ticks_categories():
    n = 2 * plot.MAX_TICKS + 5
    frame = pd.DataFrame({"user": [f"u{i:03d}" for i in range(n)], "model": "a",
                          "auc": np.linspace(0.5, 0.9, n)})  # fmt: skip
    ax = sqlauc.plot_evaluation(frame)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == [f"u{i:03d}" for i in range(0, n, 3)]
    assert len(labels) <= plot.MAX_TICKS
    assert errorbars(ax)["a"][0].tolist() == list(range(n))  # every slice is drawn


def test_plot_evaluation_with_no_defined_auc_says_so_on_a_unit_axis():
    # every slice a single class: nothing was drawn and matplotlib's default y range,
    # -0.05 .. 0.05, read as an AUC near 0
    data = evaluation_data(5)
    data["label"] = 1
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        frame = sqlauc.evaluate(None, data, scores=["a", "b"], by="day")
    ax = sqlauc.plot_evaluation(frame)
    assert ax.get_ylim() == (0.0, 1.0)
    assert any("no AUC is defined" in t.get_text() for t in ax.texts)
