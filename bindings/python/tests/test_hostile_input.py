"""Hostile input through the Python package: every C++ failure is a Python exception (never an
interpreter abort), results are never NaN or infinite, and text is not a number.

Each case is an item of the hardening issue ("No crash, no hang, no silent wrong number"); the
numbers are the ones a hostile user tried.
"""

import math
import os
import stat
import tempfile

import pytest

import capplan
from capplan import DataSize, ExchangeRate, sweeps


class TestNoAbort:
    @pytest.mark.parametrize("params,tokens", [(1e160, 1e160), (1e200, 1e200), (1e300, 1.0), (1e19, 1e19)])
    def test_training_flops_beyond_range_is_an_error(self, params, tokens):
        # Boost's conversion of a huge count to double raised from a noexcept path (an abort); the
        # sweeps refuse counts above 1e18, the CLI's bound.
        with pytest.raises(capplan.InputError, match="absurd"):
            sweeps.training_flops(params, tokens)

    def test_training_time_beyond_range_is_an_error(self):
        with pytest.raises(capplan.InputError):
            sweeps.training_time(1e300, 1e12, gpus=8, peak_flops_per_s=989e12, mfu=0.4)

    def test_as_flops_of_a_huge_int_is_an_error(self):
        with pytest.raises(capplan.InputError, match="range of a double"):
            capplan.as_flops(2**1100)

    def test_tiny_peak_overflows_into_an_error_not_inf(self):
        with pytest.raises(capplan.InputError, match="out of range"):
            sweeps.training_time(7e9, 1e12, gpus=8, peak_flops_per_s=1e-308, mfu=5e-324)


class TestTextIsNotANumber:
    @pytest.mark.parametrize("bad", ["7e9", b"7", bytearray(b"7")])
    def test_sweeps_refuse_text(self, bad):
        with pytest.raises(TypeError, match="text, not a number"):
            sweeps.training_flops(bad, 1e9)


class TestQuantityArithmetic:
    def test_division_by_zero_is_an_error(self):
        with pytest.raises(capplan.InputError, match="not a finite result"):
            DataSize(1, "GB") / 0

    def test_nan_factor_is_an_error(self):
        with pytest.raises(capplan.InputError, match="not a finite result"):
            DataSize(1, "GB") * float("nan")

    def test_overflow_is_an_error(self):
        with pytest.raises(capplan.InputError, match="not a finite result"):
            DataSize(1e300, "B") * 1e300

    def test_finite_results_still_work(self):
        assert (DataSize(80, "GB") / 2).value == 40e9


class TestExchangeRates:
    def test_date_must_be_a_date(self):
        with pytest.raises(capplan.InputError, match="as_of"):
            ExchangeRate("USD", "EUR", "0.9", "banana")
        with pytest.raises(capplan.InputError, match="as_of"):
            ExchangeRate("USD", "EUR", "0.9", "2026-13-45")

    def test_a_currency_converts_to_itself_only_at_1(self):
        with pytest.raises(capplan.InputError, match="to itself"):
            ExchangeRate("USD", "USD", "2", "2026-11-01")
        assert ExchangeRate("USD", "USD", "1", "2026-11-01").rate == 1


class TestFiles:
    def test_device_is_refused_at_once(self):
        cat = capplan.Catalog.builtin()
        with pytest.raises(capplan.InputError, match="not a regular file"):
            cat.load_file("/dev/zero")

    def test_fifo_is_refused_without_blocking(self):
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "catalog.json")
            os.mkfifo(fifo)
            assert stat.S_ISFIFO(os.stat(fifo).st_mode)
            with pytest.raises(capplan.InputError, match="not a regular file"):
                capplan.Catalog.builtin().load_file(fifo)

    def test_nul_byte_is_an_error(self):
        with pytest.raises(capplan.InputError, match="NUL"):
            capplan.Catalog.builtin().load_json('{"format": "capplan-catalog", "version": 1, "gpus": []}\0{garbage')


class TestRecordsAndSolvers:
    @pytest.mark.parametrize("bad", [float("nan"), 0.5, None, 1, "yes"])
    def test_record_flags_take_true_or_false_only(self, bad):
        g = capplan.Catalog.builtin().find_gpu("h100-sxm")
        with pytest.raises(TypeError):
            g.ecc = bad

    def test_record_flags_still_set(self):
        g = capplan.Catalog.builtin().find_gpu("h100-sxm")
        g.ecc = False
        assert g.ecc is False

    def test_max_context_refuses_a_negative_limit(self):
        shape = capplan.find_model("llama2-7b").transformer()
        with pytest.raises(capplan.InputError, match="limit: -5 is negative"):
            capplan.max_context(shape, capplan.InferenceConfig(), DataSize(24, "GB"), -5)


class TestSecondProbe:
    """Inputs a second round of probing found accepted or answered with inf, 0 or a negative value."""

    def test_checkpoint_intervals_stay_finite_and_positive(self):
        Duration = capplan.Duration
        assert math.isfinite(capplan.young_interval(Duration(1e300, "s"), Duration(1e300, "s")).value)
        assert math.isfinite(capplan.daly_interval(Duration(1e200, "s"), Duration(1e300, "s")).value)
        # Below a double's resolution there is no interval to give: refused by name, never 0 or negative.
        with pytest.raises(capplan.InputError, match="checkpoint_stall"):
            capplan.daly_interval(Duration(5e-324, "s"), Duration(5e-324, "s"))
        assert capplan.young_interval(Duration(5e-324, "s"), Duration(5e-324, "s")).value > 0

    @pytest.mark.parametrize("ep", [0, -1])
    def test_expert_data_parallel_refuses_a_degree_below_one(self, ep):
        with pytest.raises(capplan.InputError, match="ep"):
            capplan.expert_data_parallel(capplan.ParallelPlan(dp=8, ep=ep))

    def test_routing_helpers_refuse_impossible_shapes(self):
        moe = capplan.find_model("mixtral-8x7b").transformer().moe
        with pytest.raises(capplan.InputError, match="nodes"):
            capplan.expected_token_nodes(moe, -1)
        bad = capplan.find_model("mixtral-8x7b").transformer().moe
        bad.experts = 0
        with pytest.raises(capplan.InputError, match="experts"):
            capplan.expected_token_nodes(bad, 2)
        with pytest.raises(capplan.InputError, match="gpus_per_node"):
            capplan.cp_a2a_size(capplan.ParallelPlan(cp=16), -1)

    def test_top_k_must_fit_in_the_groups_a_token_may_use(self):
        shape = capplan.find_model("mixtral-8x7b").transformer()
        moe = shape.moe
        moe.experts, moe.experts_per_token, moe.expert_groups, moe.groups_per_token = 8, 4, 8, 1
        shape.moe = moe
        with pytest.raises(capplan.InputError, match="experts_per_token"):
            shape.validate()

    def test_stage_helpers_refuse_bad_stages(self):
        with pytest.raises(capplan.InputError, match="pp"):
            capplan.end_stage_layouts(32, -1)
        with pytest.raises(capplan.InputError, match="stage: 5"):
            capplan.stage_layers(32, capplan.ParallelPlan(pp=4), 5)
        with pytest.raises(capplan.InputError):
            capplan.stage_layers(32, capplan.ParallelPlan(pp=4, first_stage_layers=16, last_stage_layers=16), 1)

    def test_rent_versus_own_sweep_bounds(self):
        with pytest.raises(capplan.InputError, match="horizon_months"):
            capplan.sweep_rent_vs_own(2000, 450, 0.12, 1.0, horizon_months=[1e9])
        with pytest.raises(capplan.InputError, match="idle_power_w"):
            capplan.sweep_rent_vs_own(2000, 450, 0.12, 1.0, idle_power_w=1000)

    def test_unit_costs_name_the_value_given(self):
        with pytest.raises(capplan.InputError, match="tokens: -1 "):
            capplan.cost_per_million_tokens(capplan.Money("100 USD"), -1.0)
        with pytest.raises(capplan.InputError, match="busy_time"):
            capplan.cost_per_gpu_hour(capplan.Money("100 USD"), capplan.Duration(-1, "s"))
