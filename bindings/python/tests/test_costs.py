"""Power, energy, carbon and cost from Python: the C++ golden cases, exact money, errors."""

import decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

import capplan
from capplan import Duration, EnergyPrice, Money, MoneyRate, Power


def dettmers_desktop():
    # Dettmers, "Which GPU(s) to Get for Deep Learning" (2023): a $2,200 desktop at 450 W, $0.12/kWh.
    return capplan.OwnedOption(name="desktop", purchase=Money("2200", "USD"), active_power=Power(450, "W"),
                               electricity=EnergyPrice("0.12", "USD"))


def dettmers_cloud():
    return capplan.RentedOption.on_demand("cloud", MoneyRate("2.14", "USD"))


def test_dettmers_electricity_591_kwh():
    # 450 W x 0.15 x 8,760 h = 591.3 kWh x $0.12/kWh = $70.96 (Dettmers 2023; the C++ power test).
    e = capplan.run_energy(Power(450, "W"), Duration(1, "year"), capplan.EnergyOptions(utilization=0.15))
    assert e.facility_energy.to("kWh") == pytest.approx(591.3, rel=1e-9)
    c = capplan.electricity_cost(e, EnergyPrice("0.12 USD/kWh"))
    assert c.cost == Money("70.956", "USD")
    assert c.explain() == "450 W × 0.15 × 8,760 h = 591.3 kWh × $0.12/kWh = $70.96"
    assert c.to_dict()["cost_usd"] == decimal.Decimal("70.956")


def test_llama2_7b_carbon():
    # meta-llama/llama MODEL_CARD.md: 184,320 A100 GPU-hours at 400 W -> 31.22 tCO2e (PUE 1.1 x 0.385 kg/kWh).
    pue = capplan.pue_presets()["meta_llama"].pue
    ci = capplan.grid_intensities()["us_average_llama"].intensity
    c = capplan.carbon_footprint(capplan.gpu_hours_energy(184320, Power(400, "W"), pue), ci)
    assert c.total.to("tCO2e") == pytest.approx(31.22, abs=0.01)
    assert c.explain() == "400 W × 184,320 h = 73.73 MWh × PUE 1.1 = 81.1 MWh × 0.385 kgCO2e/kWh = 31.22 tCO2e"


def test_psu_sizing_and_wall_power():
    parts = [capplan.gpu_component("RTX 4090", Power(450, "W"), Power(20, "W")),
             capplan.cpu_component("Core i9-13900K", Power(253, "W"), Power(15, "W")),
             capplan.memory_modules("DDR5 DIMM", Power(5, "W"), Power(2, "W"), 2),
             capplan.storage_devices("NVMe SSD", Power(8, "W"), Power(1, "W")),
             capplan.board_and_fans("board and fans", Power(50, "W"))]
    s = capplan.size_psu(parts)
    assert s.max_draw == Power(771, "W")
    assert s.recommended_rating == Power(1000, "W")
    assert capplan.size_psu(parts, capplan.PsuSizingOptions(atx3=False)).recommended_rating == Power(1300, "W")
    # 80 PLUS Gold, 115 V internal: 90 % at 50 % load (80 PLUS program table).
    gold = capplan.load_efficiency_curve("gold")
    w = capplan.wall_power(Power(500, "W"), Power(1000, "W"), gold)
    assert w.efficiency == pytest.approx(0.90)
    with pytest.raises(capplan.InputError, match="dc_load: 1.1 kW exceeds the PSU rating"):
        capplan.wall_power(Power(1100, "W"), Power(1000, "W"), gold)


def test_system_power_from_the_catalog():
    cat = capplan.Catalog.builtin()
    p = capplan.system_power(cat.find_system("ws-rtx-4090"), cat)
    assert p.draw.max_total > Power(450, "W")
    assert p.wall_total() >= p.draw.max_total
    assert p.heat.btu_per_hour == pytest.approx(p.wall_total().value * 3.412142)
    assert isinstance(p.circuit.ok, bool)
    # The output for programs is the library's (report/power_output.hpp): capplan power's JSON keys.
    out = p.output("ws-rtx-4090")
    assert list(out)[:3] == ["system", "nodes", "parts"]
    assert out["system"] == "ws-rtx-4090"
    assert out["max_draw_w"] == pytest.approx(p.draw.max_total.value)
    assert out["heat_btu_per_h"] == pytest.approx(p.heat.btu_per_hour)
    assert sum(part["count"] for part in out["parts"]) == sum(c.count for c in p.components)
    assert out["assumptions"] == list(p.assumptions)


def test_a_cpu_at_full_load_draws_its_package_power_limit():
    # Ryzen 9 7950X: 170 W TDP, 230 W PPT (AMD); the energy of a run counts the TDP.
    cat = capplan.Catalog.builtin()
    cpu = cat.find_cpu("ryzen-9-7950x")
    assert cpu.max_power == Power(230, "W") and cpu.full_load_power() == Power(230, "W")
    assert cat.find_cpu("epyc-7763").max_power is None
    assert cat.find_cpu("epyc-7763").full_load_power() == Power(280, "W")
    s = cat.find_system("ws-rtx-4090")
    full = capplan.system_power(s, cat)
    at_tdp = capplan.SystemPowerAssumptions()
    at_tdp.cpu_at_package_limit = False
    typical = capplan.system_power(s, cat, at_tdp)
    assert (full.draw.max_total - typical.draw.max_total).value == pytest.approx(60.0)
    cpu.max_power = Power(100, "W")
    with pytest.raises(capplan.InputError, match="max_power"):
        cpu.validate()


def test_system_power_plans_by_the_vendors_maximum():
    # NVIDIA's DGX B200 user guide: 14.3 kW max, above what the itemized parts draw at the wall.
    cat = capplan.Catalog.builtin()
    s = cat.find_system("dgx-b200")
    assert s.max_power == Power(14.3, "kW")
    p = capplan.system_power(s, cat)
    assert p.wall_total() < Power(14.3, "kW")
    assert p.planning_total() == Power(14.3, "kW")
    assert p.heat.btu_per_hour == pytest.approx(14300 * 3.412142)
    out = p.output("dgx-b200")
    assert out["vendor_max_power_w"] == pytest.approx(14300)
    assert out["planning_power_w"] == pytest.approx(14300)
    assert capplan.system_power(cat.find_system("ws-rtx-4090"), cat).output("ws-rtx-4090")["vendor_max_power_w"] is None


def test_dettmers_break_even_293_days():
    # Published "~300 days"; reference-cases.md §5 computes 293 days; the C++ cost test checks month 10.
    c = capplan.compare_costs(dettmers_desktop(), dettmers_cloud(),
                              capplan.CompareOptions(utilization=0.15, horizon_months=24))
    assert c.owned_month_costs.total == Money("5.913", "USD")
    assert c.rented_month_costs.cost == Money("234.33", "USD")
    assert c.break_even_month == 10
    assert c.break_even_time.to("days") == pytest.approx(292.958, rel=1e-5)
    assert c.months[12].owned_cumulative == Money("2270.956", "USD")
    assert "break-even: month 10 (9.632 months = 293 days)" in c.explain()
    # The machine output (`capplan tco --format json`): exact money under currency-named keys.
    out = c.output(notes=["Utilization 0.15"])
    assert out["currency"] == "USD" and out["break_even_month"] == 10 and out["horizon_months"] == 24
    assert out["purchase_usd"] == decimal.Decimal("2200") and out["owned_per_month_usd"] == decimal.Decimal("5.913")
    assert out["months"][12]["owned_cumulative_usd"] == decimal.Decimal("2270.956")
    assert len(out["months"]) == 25 and out["assumptions"] == ["Utilization 0.15"]
    df = c.to_pandas()
    assert len(df) == 25
    assert df.loc[12, "owned_cumulative_usd"] == decimal.Decimal("2270.956")
    assert df.loc[12, "rented_cumulative_usd"] == decimal.Decimal("2811.96")


def test_currency_mix_needs_an_exchange_rate():
    rented = capplan.RentedOption.on_demand("cloud", MoneyRate("14", "CNY"))
    with pytest.raises(capplan.CurrencyError, match="pass CompareOptions::fx"):
        capplan.compare_costs(dettmers_desktop(), rented)
    fx = capplan.ExchangeRate("CNY", "USD", "0.14", "2026-11-01", "a bank")
    c = capplan.compare_costs(dettmers_desktop(), rented, capplan.CompareOptions(utilization=0.15, fx=fx))
    assert c.rented_month_converted.currency == capplan.Currency.USD
    assert c.options.to_dict()["fx"]["rate"] == decimal.Decimal("0.14")


def test_depreciation_discounting_and_unit_costs():
    sl = capplan.Depreciation.straight_line(36, Money("600", "USD"))
    assert capplan.book_value(Money("2200", "USD"), sl, 18) == Money("1400", "USD")
    db = capplan.Depreciation.declining_balance("0.4")
    assert capplan.book_value(Money("2200", "USD"), db, 12) == Money("1320", "USD")
    r = capplan.DiscountRate("0.08")
    assert r.present_value(Money("1080", "USD"), 12).rounded() == Money("1000.00", "USD")
    u = capplan.cost_per_gpu_hour(Money("100", "USD"), Duration(50, "h"), 2)
    assert u.per_unit == Money("1", "USD") and u.rate() == MoneyRate("1", "USD")
    run = capplan.cost_of_run(MoneyRate("2.49", "USD"), Duration(10, "h"), 8)
    assert run.cost == Money("199.2", "USD")


def test_break_even_utilization():
    b = capplan.break_even_utilization(dettmers_desktop(), dettmers_cloud(), capplan.CompareOptions(horizon_months=24))
    assert b.utilization is not None and 0 < b.utilization < 1
    assert b.owning_cheaper_above


def test_cost_errors_carry_the_cpp_message():
    with pytest.raises(capplan.InputError, match=r"horizon_months: 0 is outside 1\.\.240"):
        capplan.compare_costs(dettmers_desktop(), dettmers_cloud(), capplan.CompareOptions(horizon_months=0))
    with pytest.raises(capplan.InputError, match="utilization"):
        capplan.run_energy(Power(1, "W"), Duration(1, "h"), capplan.EnergyOptions(utilization=1.5))
    with pytest.raises(TypeError):
        capplan.OwnedOption(purchase=2200.0)


@given(st.lists(st.decimals(min_value=0, max_value=10**6, places=4), min_size=1, max_size=24))
def test_monthly_rentals_sum_exactly(amounts):
    total = sum((Money(a, "USD") for a in amounts), Money(0, "USD"))
    assert total.amount == sum(amounts, decimal.Decimal(0))


def test_catalog_tco_feeds_the_comparison_as_capplan_tco_gpu_does():
    cat = capplan.Catalog.builtin()
    rtx = cat.find_gpu("rtx-4090")
    t = capplan.catalog_tco(cat, rtx, 2)
    assert t.purchase == rtx.street_price.amount * 2
    assert t.purchase_high == rtx.street_price.high * 2
    assert t.power.total.value == pytest.approx(capplan.gpu_it_power(rtx, 2).total.value)
    assert t.rent_offer == "runpod-rtx-4090" and t.rent_billed_gpus == 2
    assert t.rent_kind == capplan.PriceKind.on_demand
    d = t.to_dict()
    assert d["purchase_usd"] == decimal.Decimal("3639.98")
    assert d["rent_per_gpu_hour_usd_per_h"] == decimal.Decimal("0.6")
    # The month-by-month comparison from those figures: the break-even month `capplan tco --gpu rtx-4090
    # --gpus 2 --utilization 0.3 --months 24` prints (month 16).
    owned = capplan.OwnedOption(name="2 x rtx-4090", purchase=t.purchase, active_power=t.power.total,
                                electricity=EnergyPrice("0.12 USD/kWh"))
    rented = t.rented_option()
    assert rented.kind == capplan.PriceKind.on_demand and rented.hourly == t.rent_per_gpu_hour * 2
    c = capplan.compare_costs(owned, rented, capplan.CompareOptions(utilization=0.3, horizon_months=24))
    assert c.break_even_month == 16
    # What the catalog lacks is absent, with the reason for a rent.
    a800 = capplan.catalog_tco(cat, cat.find_gpu("a800-sxm4-80gb"))
    assert a800.rent_per_gpu_hour is None and a800.rent_left_out[0].startswith("autodl-a800 (in CNY")
    assert a800.rented_option() is None
    assert not capplan.catalog_tco(cat, cat.find_gpu("tpu-v5e")).power.known
    with pytest.raises(capplan.InputError, match="utilization"):
        capplan.catalog_tco(cat, rtx, 1, utilization=0)
    assert capplan.catalog_tco(cat, cat.find_gpu("gb300")).purchase is None
    with pytest.raises(capplan.InputError, match="gpus"):
        capplan.catalog_tco(cat, rtx, 0)


def test_modules_are_bought_in_whole_baseboards():
    cat = capplan.Catalog.builtin()
    h100 = cat.find_gpu("h100-sxm")
    # The H100 datasheet's HGX with 4 or 8 GPUs; AMD's MI300X platform, 8 OAM; cards one at a time.
    assert h100.board_gpus == 4 and capplan.purchase_unit_gpus(h100) == 4
    assert capplan.purchase_unit_gpus(cat.find_gpu("mi300x")) == 8
    assert capplan.purchase_unit_gpus(cat.find_gpu("rtx-4090")) == 1
    t = capplan.catalog_tco(cat, h100, 2)
    assert t.bought_gpus == 4
    assert t.purchase == h100.street_price.amount * 4
    assert "4 bought for the 2 used" in t.price_source
    assert t.power.total.value == pytest.approx(capplan.gpu_it_power(h100, 2, gpus_per_node=8).total.value)
    assert capplan.catalog_tco(cat, cat.find_gpu("rtx-4090"), 3).bought_gpus == 0
    # A card with a board size is refused, naming the field.
    card = cat.find_gpu("rtx-4090")
    card.board_gpus = 4
    with pytest.raises(capplan.InputError, match="board_gpus"):
        card.validate()
