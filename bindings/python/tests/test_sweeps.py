"""NumPy sweeps: every element equals the scalar result for the same inputs, broadcasting follows
NumPy's rules, and bad inputs raise ValueError naming the argument and the element.

Golden values (copied from the project's reference cases, with their sources):
- GPT-3 175B: N = 174.6e9, D = 300e9 -> 3.14e23 FLOPs (Brown et al. 2020, Table D.1).
- Chinchilla: N = 70e9, D = 1.4e12 -> 588.0 ZFLOPs (Chowdhery et al. 2022, Table 21).
- Dettmers' desktop: $2,200, 450 W, $0.12/kWh, used 15% of the time, cloud $2.14/h, no discounting or
  resale -> break-even after about 293 days (Dettmers, "Which GPU(s) to Get for Deep Learning").
- Llama 2 7B: 184,320 A100 GPU-hours at 400 W (meta-llama/llama MODEL_CARD.md) -> 73,728 kWh.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import capplan
from capplan import Duration, EnergyPrice, FlopCount, FlopRate, Money, MoneyRate, Power, sweeps


def exact_6nd(n, d):
    """6 N D in exact integers (Kaplan et al. 2020), rounded once to the nearest double."""
    return float(6 * int(n) * int(d))


class TestTrainingFlops:
    def test_published_counts(self):
        f = sweeps.training_flops([174.6e9, 70e9], [300e9, 1.4e12])
        assert f.dtype == np.float64 and f.shape == (2,)
        assert f[0] == pytest.approx(3.14e23, rel=2e-3)   # Brown et al. 2020, Table D.1
        assert f[1] == pytest.approx(588.0e21, rel=1e-12)  # Chowdhery et al. 2022, Table 21

    @pytest.mark.skipif(not hasattr(capplan, "training_flops"), reason="scalar training_flops not bound")
    def test_parity_with_scalar_training_flops(self):
        params = np.array([1.3e9, 6.7e9, 70e9, 174.6e9, 405e9])
        tokens = np.array([2e9, 3e11, 1.4e12, 15.6e12])
        grid = sweeps.training_flops(params[:, None], tokens[None, :])
        for i, n in enumerate(params):
            for j, d in enumerate(tokens):
                scalar = capplan.training_flops(int(n), int(d))
                assert grid[i, j] == float(int(scalar))

    @given(st.integers(1, 10**13), st.integers(1, 10**14))
    def test_each_element_is_the_exact_count_rounded_once(self, n, d):
        n, d = float(n), float(d)
        if int(n) != n or int(d) != d:
            return
        assert sweeps.training_flops(n, d)[()] == exact_6nd(n, d)

    def test_broadcast_shape_and_order(self):
        params = np.array([1e9, 2e9, 3e9])[:, None]
        tokens = np.array([1e10, 2e10])
        f = sweeps.training_flops(params, tokens)
        assert f.shape == (3, 2)
        assert f[2, 1] == exact_6nd(3e9, 2e10)
        assert f[0, 0] == exact_6nd(1e9, 1e10)

    def test_runs_of_equal_and_changing_pairs(self):
        # Neighbouring elements that share (params, tokens) reuse one exact product; changes are seen.
        params = np.array([1e9, 1e9, 2e9, 2e9, 1e9, 3e9, 3e9, 1e9])
        tokens = np.array([5e9, 5e9, 5e9, 7e9, 7e9, 7e9, 7e9, 5e9])
        f = sweeps.training_flops(params, tokens)
        assert list(f) == [exact_6nd(n, d) for n, d in zip(params, tokens)]
        t = sweeps.training_time(params, tokens, 2, 1e12, 0.5)
        assert list(t) == pytest.approx([exact_6nd(n, d) / 1e12 for n, d in zip(params, tokens)], rel=1e-15)

    @given(hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=4, max_side=4), st.data())
    def test_any_broadcast_matches_numpy_element_by_element(self, shapes, data):
        # Arbitrary shapes (scalars, size-1 axes, different ranks), element by element against NumPy's broadcasting.
        ints = st.integers(1, 10**6)
        params = data.draw(hnp.arrays(np.float64, shapes.input_shapes[0], elements=ints))
        tokens = data.draw(hnp.arrays(np.float64, shapes.input_shapes[1], elements=ints))
        gpus = data.draw(hnp.arrays(np.float64, shapes.input_shapes[2], elements=st.integers(1, 4096)))
        t = sweeps.training_time(params, tokens, gpus, 1e12, 0.5)
        assert t.shape == shapes.result_shape
        p, d, g = np.broadcast_arrays(params, tokens, gpus)
        for idx in np.ndindex(*shapes.result_shape):
            assert t[idx] == exact_6nd(p[idx], d[idx]) / (1e12 * (g[idx] * 0.5))

    def test_integer_and_list_inputs_convert(self):
        assert sweeps.training_flops(np.array([10, 20], dtype=np.int64), 3)[1] == 6 * 20 * 3
        assert sweeps.training_flops([[1, 2]], [[3], [4]]).shape == (2, 2)


class TestTrainingTime:
    def test_parity_with_units_arithmetic(self):
        # time = 6ND / (GPUs x peak x MFU) through the scalar quantities (FlopCount / FlopRate).
        params = np.array([7e9, 70e9])[:, None, None]
        tokens = np.array([1e12, 2e12])[None, :, None]
        gpus = np.array([8, 64, 1024])
        t = sweeps.training_time(params, tokens, gpus, peak_flops_per_s=989e12, mfu=0.4)
        assert t.shape == (2, 2, 3)
        for i in range(2):
            for j in range(2):
                for k in range(3):
                    flops = FlopCount.from_value(exact_6nd(params[i, 0, 0], tokens[0, j, 0]))
                    scalar = flops / (FlopRate(989, "TFLOP/s") * (float(gpus[k]) * 0.4))
                    assert isinstance(scalar, Duration)
                    assert t[i, j, k] == pytest.approx(scalar.value, rel=1e-15)

    def test_gpt3_on_1024_a100_at_mfu(self):
        # 3.1428e23 FLOPs on 1,024 A100s (312 TFLOP/s dense BF16) at 46% MFU (Megatron's 1T run, Narayanan et al.
        # 2021, Table 1): 3.1428e23 / (1024 x 312e12 x 0.46) s = 24.75 days (arithmetic on the published inputs).
        t = sweeps.training_time(174.6e9, 300e9, 1024, 312e12, 0.46)[()]
        assert t == pytest.approx(exact_6nd(174.6e9, 300e9) / (1024 * 312e12 * 0.46), rel=1e-15)
        assert t / 86400 == pytest.approx(24.75, abs=0.01)

    def test_more_gpus_never_take_longer(self):
        t = sweeps.training_time(7e9, 1e12, np.arange(1, 257), 989e12, 0.4)
        assert np.all(np.diff(t) < 0)


class TestEnergy:
    def test_llama2_7b_gpu_hours(self):
        # 184,320 GPU-hours at 400 W (Llama 2 model card): 73,728 kWh of IT energy.
        e = sweeps.run_energy(400.0, 184320 * 3600.0)[()]
        assert e == pytest.approx(73728.0, rel=1e-12)

    def test_parity_with_scalar_quantities(self):
        power = np.array([300.0, 450.0, 700.0])
        u = np.array([0.0, 0.15, 1.0])[:, None]
        e = sweeps.run_energy(power, 8760 * 3600.0, utilization=u, idle_power_w=50.0, pue=1.1)
        for i in range(3):
            for j in range(3):
                avg = Power(power[j], "W") * u[i, 0] + Power(50, "W") * (1 - u[i, 0])
                scalar = avg * Duration(1, "year") * 1.1
                assert e[i, j] == pytest.approx(scalar.to("kWh"), rel=1e-14)

    def test_dettmers_desktop_year(self):
        # 450 W x 15% x 8,760 h = 591.3 kWh.
        assert sweeps.run_energy(450, 8760 * 3600.0, utilization=0.15)[()] == pytest.approx(591.3, rel=1e-12)


class TestTrainingRun:
    def test_every_output_and_its_parity(self):
        r = sweeps.training(params=[7e9, 13e9], tokens=2e12, gpus=[[64], [512]], peak_flops_per_s=312e12, mfu=0.5,
                            gpu_power_w=400, pue=1.1, usd_per_gpu_hour=1.89, usd_per_kwh=0.12)
        assert set(r) == {"flops", "time_s", "gpu_hours", "energy_kwh", "rent_usd", "electricity_usd"}
        assert all(v.shape == (2, 2) and v.dtype == np.float64 for v in r.values())
        for i, g in enumerate([64, 512]):
            for j, n in enumerate([7e9, 13e9]):
                flops = exact_6nd(n, 2e12)
                t = Duration.from_value(flops / (312e12 * g * 0.5))
                assert r["flops"][i, j] == flops
                assert r["time_s"][i, j] == pytest.approx(t.value, rel=1e-15)
                assert r["gpu_hours"][i, j] == pytest.approx(g * t.to("h"), rel=1e-14)
                energy = Power(400 * g, "W") * t * 1.1
                assert r["energy_kwh"][i, j] == pytest.approx(energy.to("kWh"), rel=1e-14)
                # Exact money from the scalar API, compared to the float64 dollars of the sweep.
                rent = MoneyRate("1.89 USD/h") * (t * g)
                assert r["rent_usd"][i, j] == pytest.approx(float(rent.amount), rel=1e-12)
                power_cost = EnergyPrice("0.12 USD/kWh") * energy
                assert r["electricity_usd"][i, j] == pytest.approx(float(power_cost.amount), rel=1e-12)

    def test_one_million_points_have_the_grid_shape(self):
        r = sweeps.training(params=np.linspace(1e9, 100e9, 100).round()[:, None, None],
                            tokens=np.linspace(1e11, 1e13, 100).round()[None, :, None],
                            gpus=np.arange(1, 101)[None, None, :], peak_flops_per_s=989e12)
        assert r["time_s"].shape == (100, 100, 100)
        assert np.all(np.isfinite(r["time_s"])) and np.all(r["time_s"] > 0)


class TestRentVsOwn:
    DESK = dict(purchase_usd=2200, active_power_w=450, usd_per_kwh=0.12, rent_usd_per_hour=2.14, utilization=0.15)

    def test_dettmers_desktop_break_even(self):
        r = sweeps.rent_vs_own(**self.DESK, horizon_months=24)
        # Electricity 450 W x 0.15 x 730 h x $0.12/kWh = $5.913 a month; cloud 0.15 x 730 h x $2.14 = $234.33.
        assert r["owned_monthly_usd"][()] == pytest.approx(5.913, rel=1e-12)
        assert r["rented_monthly_usd"][()] == pytest.approx(234.33, rel=1e-12)
        assert r["break_even_month"][()] == 10
        days = r["break_even_time_months"][()] * 730 / 24
        assert days == pytest.approx(293, abs=1)  # Dettmers: about 293 days ("~300")
        assert r["owned_total_usd"][()] == pytest.approx(2200 + 24 * 5.913, rel=1e-12)
        assert r["rented_total_usd"][()] == pytest.approx(24 * 234.33, rel=1e-12)

    def test_parity_with_exact_money_month_by_month(self):
        # The first month m with P + m x run <= m x rent, run and rent computed in exact Money.
        util = np.array([0.05, 0.15, 0.5, 1.0])
        rent_rate = np.array([0.5, 2.14, 4.0])[:, None]
        r = sweeps.rent_vs_own(2200, 450, 0.12, rent_rate, util, horizon_months=120, maintenance_usd_per_month=10)
        for i, rate in enumerate([Fraction("0.5"), Fraction("2.14"), Fraction("4.0")]):
            for j, u in enumerate(["0.05", "0.15", "0.5", "1.0"]):
                energy = Power(450, "W") * float(u) * Duration(1, "month")
                run = EnergyPrice("0.12 USD/kWh") * energy + Money("10", "USD")
                rent = Money(rate * Fraction(u) * 730, "USD")
                assert r["owned_monthly_usd"][i, j] == pytest.approx(float(run.amount), rel=1e-12)
                assert r["rented_monthly_usd"][i, j] == pytest.approx(float(rent.amount), rel=1e-12)
                purchase = Money("2200", "USD")
                expected = math.inf
                for m in range(0, 121):
                    if purchase + run * m <= rent * m:
                        expected = m
                        break
                assert r["break_even_month"][i, j] == expected

    @pytest.mark.skipif(not hasattr(capplan, "compare_costs"), reason="compare_costs not bound")
    def test_parity_with_compare_costs(self):
        # The sweep against the exact month-by-month comparison, over utilization x rate x upkeep.
        utils = ["0", "0.05", "0.15", "0.5", "1"]
        rates = ["0.25", "2.14", "9.80"]
        upkeep = ["0", "25"]
        r = sweeps.rent_vs_own(2200, 450, 0.12, np.array([float(x) for x in rates])[:, None, None],
                               np.array([float(u) for u in utils])[None, :, None], horizon_months=36, idle_power_w=60,
                               pue=1.2, maintenance_usd_per_month=np.array([float(x) for x in upkeep]))
        for i, rate in enumerate(rates):
            for j, u in enumerate(utils):
                for k, up in enumerate(upkeep):
                    owned = capplan.OwnedOption(name="desk", purchase=Money("2200", "USD"),
                                                active_power=Power(450, "W"), idle_power=Power(60, "W"), pue=1.2,
                                                electricity=EnergyPrice("0.12 USD/kWh"),
                                                maintenance_per_month=Money(up, "USD"))
                    rented = capplan.RentedOption.on_demand("cloud", MoneyRate(rate + " USD/h"))
                    c = capplan.compare_costs(owned, rented, capplan.CompareOptions(utilization=float(u),
                                                                                    horizon_months=36))
                    at = (i, j, k)
                    assert r["owned_total_usd"][at] == pytest.approx(float(c.last().owned_cumulative.amount), rel=1e-12)
                    assert r["rented_total_usd"][at] == pytest.approx(float(c.last().rented_cumulative.amount),
                                                                      rel=1e-12, abs=1e-9)
                    expected = math.inf if c.break_even_month is None else c.break_even_month
                    assert r["break_even_month"][at] == expected
                    if c.break_even_time is not None:
                        assert r["break_even_time_months"][at] * 730 * 3600 == pytest.approx(
                            c.break_even_time.value, rel=1e-9)

    def test_no_break_even_is_inf_never_nan(self):
        r = sweeps.rent_vs_own(2200, 450, 0.12, [0.01, 2.14], 0.15, horizon_months=6)
        assert np.isinf(r["break_even_month"]).all()  # too cheap to rent; beyond the horizon
        assert not np.isnan(r["break_even_time_months"]).any()

    def test_free_hardware_breaks_even_at_once(self):
        assert sweeps.rent_vs_own(0, 450, 0.12, 2.14, 0.15)["break_even_month"][()] == 0


class TestQuantityArguments:
    def test_quantities_of_the_right_role(self):
        t = sweeps.training_time(7e9, 1e12, [8, 16], FlopRate(989, "TFLOP/s"), 0.4)
        assert list(t) == list(sweeps.training_time(7e9, 1e12, [8, 16], 989e12, 0.4))
        e = sweeps.run_energy(Power(450, "W"), Duration(1, "year"), utilization=0.15)
        assert e[()] == pytest.approx(591.3, rel=1e-12)
        r = sweeps.training(7e9, 1e12, 8, FlopRate(989, "TFLOP/s"), gpu_power_w=Power(0.7, "kW"))
        assert r["energy_kwh"][()] == pytest.approx(sweeps.training(7e9, 1e12, 8, 989e12, gpu_power_w=700)["energy_kwh"])

    def test_a_quantity_of_another_role_is_refused(self):
        with pytest.raises(TypeError, match="peak_flops_per_s: expected a FlopRate or a number in FLOP/s, got a Power"):
            sweeps.training_time(7e9, 1e12, 8, Power(700, "W"))
        with pytest.raises(TypeError, match="time_s: expected a Duration"):
            sweeps.run_energy(400, Power(1, "W"))


class TestBadInput:
    def test_negative_names_argument_and_index(self):
        with pytest.raises(ValueError, match=r"params\[2\]: -1 must be > 0") as e:
            sweeps.training_flops([1e9, 2e9, -1], 1e12)
        assert isinstance(e.value, capplan.InputError)
        assert e.value.field == "params[2]"
        assert e.value.value == "-1"

    def test_nan_and_inf(self):
        with pytest.raises(ValueError, match=r"tokens\[0, 1\]: NaN is not a number"):
            sweeps.training_flops(1e9, [[1e12, np.nan]])
        with pytest.raises(ValueError, match=r"peak_flops_per_s: inf is not finite"):
            sweeps.training_time(1e9, 1e12, 8, math.inf, 0.4)

    def test_fractions_and_counts(self):
        with pytest.raises(ValueError, match=r"mfu\[1\]: 1.5 is outside \(0, 1\]"):
            sweeps.training_time(1e9, 1e12, 8, 989e12, [0.4, 1.5])
        with pytest.raises(ValueError, match=r"gpus\[0\]: 2.5 is not a whole number"):
            sweeps.training_time(1e9, 1e12, [2.5], 989e12, 0.4)
        with pytest.raises(ValueError, match=r"params: 1.5 is not a whole number"):
            sweeps.training_flops(1.5, 10)
        with pytest.raises(ValueError, match=r"utilization\[0\]: 1.2 is outside \[0, 1\]"):
            sweeps.run_energy(400, 3600, utilization=[1.2])
        with pytest.raises(ValueError, match=r"pue: 0.9"):
            sweeps.run_energy(400, 3600, pue=0.9)
        with pytest.raises(ValueError, match=r"horizon_months: 0 must be"):
            sweeps.rent_vs_own(2200, 450, 0.12, 2.14, horizon_months=0)

    def test_shape_mismatch_names_both_arguments(self):
        with pytest.raises(ValueError, match=r"shape mismatch: tokens has shape \(4,\) and params has shape \(3,\)"):
            sweeps.training_flops(np.ones(3), np.ones(4))

    def test_not_numbers(self):
        with pytest.raises(TypeError, match="params"):
            sweeps.training_flops(["a", "b"], 1)
        with pytest.raises(TypeError, match="tokens"):
            sweeps.training_flops(1, None)
        with pytest.raises(TypeError, match="gpus"):
            sweeps.training_time(1, 1, np.array([1 + 2j]), 1e12, 0.4)

    def test_empty_grid(self):
        assert sweeps.training_flops(np.ones((0, 3)), 1).shape == (0, 3)


def test_module_examples():
    import doctest

    assert doctest.testmod(sweeps, raise_on_error=True).attempted > 0


class TestPlanTimes:
    def test_parity_with_search_plans(self):
        gpu = capplan.Catalog.builtin().find_gpu("H100 SXM")
        job = capplan.TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=512, seq_len=4096)
        link = capplan.infiniband(capplan.Bandwidth(50, "GB/s"))
        r = sweeps.plan_times(job, gpu, [8, 32, 128], link, tokens=2e12)
        assert list(r["gpus"]) == [8, 32, 128] and r["fits"].all()
        for i, n in enumerate([8, 32, 128]):
            est = capplan.search_plans(job, capplan.make_cluster(gpu, n, 8, link), top=1).top[0].estimate
            assert r["time_s"][i] == 2e12 / est.tokens_per_second
            assert r["mfu"][i] == est.mfu
        assert np.all(np.diff(r["time_s"]) < 0)

    def test_no_fit_is_inf_and_left_off_the_plot(self):
        # Llama 2 70B with Adam on one 24 GB RTX 4090: nothing fits (16 B/parameter of model states alone).
        gpu = capplan.Catalog.builtin().find_gpu("RTX 4090")
        job = capplan.TrainingJob(model=capplan.find_model("llama2-70b").transformer(), global_batch=64, seq_len=4096)
        r = sweeps.plan_times(job, gpu, [1], capplan.infiniband(capplan.Bandwidth(25, "GB/s")), tokens=1e9)
        assert not r["fits"][0] and r["time_s"][0] == math.inf and r["mfu"][0] == 0

    def test_bad_counts_and_tokens(self):
        gpu = capplan.Catalog.builtin().find_gpu("H100 SXM")
        job = capplan.TrainingJob(model=capplan.find_model("llama2-7b").transformer(), global_batch=512, seq_len=4096)
        link = capplan.infiniband(capplan.Bandwidth(50, "GB/s"))
        with pytest.raises(ValueError, match=r"gpus\[1\]: 2.5"):
            sweeps.plan_times(job, gpu, [8, 2.5], link, tokens=1e9)
        with pytest.raises(ValueError, match="tokens"):
            sweeps.plan_times(job, gpu, [8], link, tokens=-1)
