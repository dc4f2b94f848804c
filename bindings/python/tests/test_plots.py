"""Plots: the artists carry the numbers (line data, the break-even marker, bar heights, the
capacity line), checked directly rather than through images. Agg backend, no display."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import capplan  # noqa: E402
from capplan import DataSize, plots, sweeps  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def artist(ax, gid):
    found = [a for a in ax.get_children() if a.get_gid() == gid]
    assert len(found) == 1, f"{gid}: {len(found)} artists"
    return found[0]


def bars(ax, gid):
    return [p for c in ax.containers for p in c.patches if c.get_gid() == gid] or \
        [p for p in ax.patches if p.get_gid() == gid]


class TestCumulativeCost:
    # Dettmers' desktop ($2,200, 450 W, $0.12/kWh, 15%) against a $2.14/h cloud GPU: break-even in month 10.
    def desk_series(self, horizon=24):
        r = sweeps.rent_vs_own(2200, 450, 0.12, 2.14, 0.15, horizon_months=horizon)
        m = np.arange(horizon + 1)
        return {"month": m, "owned_cumulative": 2200 + m * r["owned_monthly_usd"],
                "rented_cumulative": m * r["rented_monthly_usd"], "break_even_month": r["break_even_month"][()],
                "break_even_time_months": r["break_even_time_months"][()]}

    def test_lines_and_break_even_marker(self):
        data = self.desk_series()
        ax = plots.cumulative_cost(data)
        owned, rented = artist(ax, "owned"), artist(ax, "rented")
        np.testing.assert_allclose(owned.get_xdata(), np.arange(25))
        np.testing.assert_allclose(owned.get_ydata(), 2200 + 5.913 * np.arange(25), rtol=1e-12)
        np.testing.assert_allclose(rented.get_ydata(), 234.33 * np.arange(25), rtol=1e-12)
        marker = artist(ax, "break_even")
        assert list(marker.get_xdata()) == [10]
        assert marker.get_ydata()[0] == pytest.approx(2200 + 10 * 5.913)
        crossing = artist(ax, "break_even_time")
        assert crossing.get_xdata()[0] == pytest.approx(2200 / (234.33 - 5.913), rel=1e-12)
        assert ax.get_title() == "Cumulative cost: break-even in month 10"
        assert ax.get_ylabel() == "cumulative cost (USD)"

    def test_break_even_found_from_the_series_when_not_given(self):
        data = self.desk_series()
        del data["break_even_month"], data["break_even_time_months"]
        ax = plots.cumulative_cost(data)
        assert list(artist(ax, "break_even").get_xdata()) == [10]

    def test_no_break_even(self):
        data = self.desk_series(horizon=6)
        ax = plots.cumulative_cost(data)
        assert not [a for a in ax.get_children() if a.get_gid() == "break_even"]
        assert ax.get_title() == "Cumulative cost: no break-even within 6 months"

    def test_draws_on_the_given_axes(self):
        fig, ax = plt.subplots()
        assert plots.cumulative_cost(self.desk_series(), ax=ax) is ax

    def test_mismatched_lengths(self):
        with pytest.raises(ValueError, match="differ in length"):
            plots.cumulative_cost({"month": [0, 1], "owned_cumulative": [1, 2, 3], "rented_cumulative": [0, 1]})

    @pytest.mark.skipif(not hasattr(capplan, "compare_costs"), reason="compare_costs not bound")
    def test_from_compare_costs(self):
        owned = capplan.OwnedOption(name="desktop", purchase=capplan.Money("2200", "USD"),
                                    active_power=capplan.Power(450, "W"),
                                    electricity=capplan.EnergyPrice("0.12 USD/kWh"))
        rented = capplan.RentedOption.on_demand("cloud", capplan.MoneyRate("2.14 USD/h"))
        c = capplan.compare_costs(owned, rented, capplan.CompareOptions(utilization=0.15, horizon_months=24))
        ax = plots.cumulative_cost(c)
        assert list(artist(ax, "break_even").get_xdata()) == [c.break_even_month] == [10]
        owned_line = artist(ax, "owned")
        assert owned_line.get_ydata()[-1] == pytest.approx(float(c.months[-1].owned_cumulative.amount), rel=1e-15)
        assert owned_line.get_label() == "desktop (cumulative)"


class TestRoofline:
    # H100 SXM: 989 TFLOP/s dense BF16, 3.35 TB/s (NVIDIA datasheet): ridge 295.2 FLOP/B.
    PEAK, BW = 989e12, 3.35e12

    def test_roof_and_ridge(self):
        ax = plots.roofline(self.PEAK, self.BW)
        roof = artist(ax, "roof")
        x, y = roof.get_xdata(), roof.get_ydata()
        np.testing.assert_allclose(y, np.minimum(989, x * 3.35), rtol=1e-12)
        assert artist(ax, "ridge").get_xdata()[0] == pytest.approx(989 / 3.35)
        assert ax.get_xscale() == "log" and ax.get_yscale() == "log"

    def test_ops_placed_on_the_roof_or_at_their_time(self):
        ops = [{"name": "gemm", "flops": 2 * 4096**3, "bytes": 3 * 2 * 4096**2},          # compute bound
               {"name": "softmax", "flops": 5e6, "bytes": 4e6},                            # memory bound
               {"name": "timed", "flops": 1e12, "bytes": 1e9, "time_s": 0.002}]           # 500 TFLOP/s achieved
        ax = plots.roofline(self.PEAK, self.BW, ops)
        gemm = artist(ax, "op:gemm")
        assert gemm.get_xdata()[0] == pytest.approx(4096 / 3)
        assert gemm.get_ydata()[0] == pytest.approx(989)
        soft = artist(ax, "op:softmax")
        assert soft.get_ydata()[0] == pytest.approx(1.25 * 3.35)
        assert artist(ax, "op:timed").get_ydata()[0] == pytest.approx(500)

    def test_layer_op_lines_of_the_performance_model(self):
        # Each kernel of a Llama 2 7B layer on 8 H100s sits at its intensity and at FLOPs / predicted time.
        gpu = capplan.Catalog.builtin().find_gpu("H100 SXM")
        job = capplan.TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=512, seq_len=4096)
        cluster = capplan.make_cluster(gpu, 8, 8, capplan.infiniband(capplan.Bandwidth(50, "GB/s")))
        lines = capplan.layer_op_lines(job, capplan.ParallelPlan(dp=8, micro_batch=1), cluster)
        peak = capplan.peak_rate(gpu, capplan.Precision.bf16)
        ax = plots.roofline(peak, capplan.peak_bandwidth(gpu), lines)
        assert artist(ax, "ridge").get_xdata()[0] == pytest.approx(peak.value / capplan.peak_bandwidth(gpu).value)
        placed = 0
        for line in lines:
            if line.op.bytes <= 0 or line.op.flops <= 0:
                assert not [a for a in ax.get_lines() if a.get_gid() == f"op:{line.op.name}"]
                continue
            points = [a for a in ax.get_lines() if a.get_gid() == f"op:{line.op.name}"]
            assert points, line.op.name
            ys = [p.get_ydata()[0] for p in points]
            assert line.op.flops / line.forward.value / 1e12 == pytest.approx(min(ys, key=lambda y: abs(
                y - line.op.flops / line.forward.value / 1e12)))
            # No kernel beats the roof: predicted rates lie on or under min(peak, intensity x bandwidth).
            assert line.op.flops / line.forward.value <= line.roofline.attainable.value * (1 + 1e-9)
            placed += 1
        assert placed >= 4

    def test_quantities_accepted(self):
        ax = plots.roofline(capplan.FlopRate(989, "TFLOP/s"), capplan.Bandwidth(3.35, "TB/s"))
        assert artist(ax, "ridge").get_xdata()[0] == pytest.approx(989 / 3.35)

    def test_bad_peak(self):
        with pytest.raises(ValueError, match="must be > 0"):
            plots.roofline(0, 1e12)
        with pytest.raises(TypeError, match="peak_flops_per_s"):
            plots.roofline("fast", 1e12)


class TestMemoryBreakdown:
    # 7B parameters, mixed-precision Adam (ZeRO paper, §3.1): 2 + 2 + 12 bytes per parameter = 112 GB of model states.
    BUDGET = {"weights": 14e9, "gradients": 14e9, "optimizer states": 84e9, "activations": DataSize(20, "GB")}

    def test_segments_sum_to_the_total_and_capacity_line(self):
        ax = plots.memory_breakdown(self.BUDGET, capacity=DataSize(80, "GB"))
        heights = [p.get_height() for p in ax.patches]
        assert heights == pytest.approx([14, 14, 84, 20])
        tops = [p.get_y() + p.get_height() for p in ax.patches]
        assert max(tops) == pytest.approx(132)
        assert artist(ax, "capacity").get_ydata()[0] == pytest.approx(80)

    def test_several_configurations_side_by_side(self):
        sharded = {k: (v / 8 if k in ("gradients", "optimizer states") else v) for k, v in self.BUDGET.items()
                   if not hasattr(v, "value")}
        ax = plots.memory_breakdown({"DDP": self.BUDGET, "ZeRO-2 x8": sharded}, capacity=80e9)
        totals = {}
        for p in ax.patches:
            totals[round(p.get_x() + p.get_width() / 2)] = totals.get(round(p.get_x() + p.get_width() / 2), 0) + \
                p.get_height()
        assert totals[0] == pytest.approx(132)
        assert totals[1] == pytest.approx(14 + 14 / 8 + 84 / 8)
        assert [t.get_text() for t in ax.get_xticklabels()] == ["DDP", "ZeRO-2 x8"]

    def test_memory_budget_object_against_a_gpu(self):
        # Llama 2 7B, mixed-precision Adam, on an H100 SXM (80 GB): every item of the budget is a segment.
        shape = capplan.find_model("llama2-7b").transformer()
        budget = capplan.training_budget(shape, capplan.TrainingConfig(plan=capplan.ParallelPlan(micro_batch=1), seq_len=2048))
        gpu = capplan.Catalog.builtin().find_gpu("H100 SXM")
        ax = plots.memory_breakdown(budget, capacity=gpu)
        assert sum(p.get_height() for p in ax.patches) == pytest.approx(budget.total().to("GB"), rel=1e-12)
        weights = [p for p in ax.patches if p.get_label() == "weights" or p.get_gid() == "component:weights"]
        assert weights and weights[0].get_height() == pytest.approx(budget.weights.size.to("GB"), rel=1e-12)
        cap = artist(ax, "capacity")
        assert cap.get_ydata()[0] == pytest.approx(gpu.memory.to("GB")) == pytest.approx(80)
        assert gpu.name in cap.get_label()


class TestTimeVsGpus:
    def test_sweep_arrays_and_ideal_line(self):
        gpus = np.array([8, 16, 32, 64])
        t = sweeps.training_time(7e9, 1e12, gpus, 989e12, 0.4)
        ax = plots.time_vs_gpus(gpus, t)
        line = artist(ax, "time")
        np.testing.assert_allclose(line.get_xdata(), gpus)
        np.testing.assert_allclose(line.get_ydata(), t / 86400)
        assert ax.get_ylabel() == "time (days)"
        np.testing.assert_allclose(artist(ax, "ideal").get_ydata(), t[0] * 8 / gpus / 86400)

    def test_mapping_and_unit(self):
        ax = plots.time_vs_gpus({"gpus": [1, 2], "time_s": [7200, 3700]}, unit="minutes")
        assert list(artist(ax, "time").get_ydata()) == pytest.approx([120, 3700 / 60])

    def test_counts_without_a_plan_are_left_out(self):
        ax = plots.time_vs_gpus({"gpus": [1, 2, 4], "time_s": [math.inf, 7200, 3600]})
        assert list(artist(ax, "time").get_xdata()) == [2, 4]

    def test_bad_input(self):
        with pytest.raises(ValueError, match="differ in length"):
            plots.time_vs_gpus([1, 2, 3], [1, 2])
        with pytest.raises(ValueError, match="unit"):
            plots.time_vs_gpus([1], [1], unit="fortnights")
        with pytest.raises(ValueError, match="NaN"):
            plots.time_vs_gpus([1, 2], [1, math.nan])


def test_module_examples():
    import doctest

    assert doctest.testmod(plots, raise_on_error=True).attempted > 0
