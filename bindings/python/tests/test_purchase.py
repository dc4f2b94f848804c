"""The purchase comparison (what `capplan compare` prints) from Python."""

import decimal

import pytest

import capplan
from capplan import Catalog, PurchaseQuery


@pytest.fixture(scope="module")
def table():
    q = PurchaseQuery(model=capplan.find_model("llama2-7b").transformer(), model_name="llama2-7b",
                      model_source="preset", tokens=1e9)
    q.filters.systems = False
    q.filters.cloud = False
    q.filters.form_factor = capplan.FormFactor.sxm
    return capplan.purchase_table(q, Catalog.builtin())


def test_rows_and_table(table):
    assert table.rows and all(r.kind == capplan.OptionKind.gpu for r in table.rows)
    timed = [r for r in table.rows if r.estimated()]
    assert timed and all(r.time.value > 0 for r in timed)
    row = timed[0]
    assert row.training is not None and row.training.plan.gpus() == row.gpus
    assert row.training.memory.total() <= row.gpu_memory
    t = table.table()
    assert isinstance(t, capplan.Table) and len(t.rows) == len(table.rows)
    assert "Option" in str(table)


def test_to_pandas_keeps_the_cli_keys(table):
    df = table.to_pandas()
    assert {"option", "gpus", "time_s", "own_cost_usd", "rent_cost_usd", "memory_per_gpu_bytes"} <= set(df.columns)
    assert len(df) == len(table.rows)
    # Exact decimals where there is a price; the table's marker text ("no price") where there is none.
    costs = [c for c in df["own_cost_usd"] if isinstance(c, decimal.Decimal)]
    assert costs and all(isinstance(c, (decimal.Decimal, str)) for c in df["own_cost_usd"])


def test_output_is_the_cli_json(table):
    out = table.output()
    assert list(out)[:3] == ["model", "parameters", "workload"]
    assert out["model"] == "llama2-7b" and out["workload"] == "train" and out["tokens"] == 1e9
    assert out["flops_total"] == table.flops_total and out["assumptions"] == table.assumptions
    assert len(out["rows"]) == len(table.rows)
    # Every key the table has, the same figure: numbers as numbers, money exact, gaps as None.
    t = table.table()
    keys = [c.key for c in t.columns]
    for row, cells, o in zip(table.rows, t.rows, out["rows"]):
        assert set(keys) - {"kind"} <= set(o) and o["option"] == row.option and o["fits"] == row.estimated()
        if not row.estimated():
            assert o["time_s"] is None and o["status"] == row.status
            continue
        assert o["time_s"] == row.time.value and isinstance(o["gpus"], int) and o["gpus"] == row.gpus
        assert o["plan"]["tp"] * o["plan"]["pp"] * o["plan"]["dp"] == row.gpus
        for key in ("own_cost_usd", "rent_cost_usd"):
            cell = cells[keys.index(key)]
            assert o[key] is None or (isinstance(o[key], decimal.Decimal) and str(o[key]) == cell.exact)


def test_bad_query_names_the_field():
    q = PurchaseQuery(model=capplan.find_model("llama2-7b").transformer(), tokens=0)
    with pytest.raises(capplan.InputError, match="tokens: 0 must be > 0 for training"):
        capplan.purchase_table(q, Catalog.builtin())


def test_serving_run():
    cat = Catalog.builtin()
    run = capplan.smallest_serving_run(capplan.find_model("llama2-7b").transformer(), cat.find_gpu("RTX 4090"),
                                       capplan.ServingLoad(weights="q4_0", batch=1))
    assert run is not None and run.fit.fits and run.tp * run.pp == 1
    assert run.estimate.decode_bound == capplan.Bound.memory


def test_rows_carry_the_whole_run(table):
    timed = [r for r in table.rows if r.estimated()]
    for r in timed:
        assert r.goodput is not None
        assert r.goodput.expected_wall_clock.value >= r.time.value
        assert r.goodput.ideal_time.value == pytest.approx(r.time.value)


def test_size_system_sums_its_parts_and_checks_the_rules():
    cat = capplan.Catalog.builtin()
    s = capplan.size_system(cat.find_gpu("rtx4090"), gpus=2, task=capplan.SizingTask.finetune, parameters=8e9, trainable=10e6,
                            cpu=cat.find_cpu("ryzen-9-7950x"))
    gib = 1024 ** 3
    assert s.ram_needed.value == pytest.approx(16 * gib + 6 * gib + 16e9 + gib + 14 * 10e6)
    assert s.ram.value == pytest.approx(48e9)
    assert s.cpu_cores == 6 and s.pcie_lanes == 36
    ram = s.lines[0]
    assert ram.item == "system RAM" and len(ram.rules_of_thumb) == 3
    assert ram.rules_of_thumb[0].verdict.startswith("oversized")
    assert "not enough" in s.lines[4].answer  # 28 lanes on the Ryzen for 36
    with pytest.raises(capplan.InputError) as e:
        capplan.size_system(cat.find_gpu("rtx4090"), gpus=0)
    assert e.value.field == "gpus"


def test_propose_builds_are_compatible_and_within_budget():
    cat = capplan.Catalog.builtin()
    q = capplan.BuildQuery(model=capplan.find_model("llama3.1-8b").transformer(), model_id="llama3.1-8b",
                           task=capplan.SizingTask.finetune, finetune=capplan.FineTune.lora, seq_len=2048,
                           budget=capplan.Money("8000", "USD"))
    r = capplan.propose_builds(q, cat, 3)
    assert r.builds and r.rejected
    for b in r.builds:
        assert capplan.build_problems(b, q, cat) == []
        assert b.total.amount <= decimal.Decimal("8000")
        assert {i.kind.name for i in b.items} >= {"gpu", "cpu", "memory", "storage", "psu", "chassis"}
    speeds = [b.tokens_per_second for b in r.builds]
    assert speeds == sorted(speeds, reverse=True)
    budget = capplan.BuildBudget(amount=capplan.Money("8000", "USD"))
    out = r.output("finetune llama3.1-8b lora", budget, q)
    assert out["model"] == "llama3.1-8b" and out["task"] == "finetune" and out["finetune"] == "lora" and out["seq_len"] == 2048
    assert out["weights"] is None and out["batch"] is None
    assert "model" not in r.output("finetune llama3.1-8b lora", budget)
    # Serving: the load it was sized for, with the released format's experts.
    sq = capplan.BuildQuery(model=capplan.find_model("gpt-oss-120b").transformer(), model_id="gpt-oss-120b",
                            task=capplan.SizingTask.serve, budget=capplan.Money("15000", "USD"),
                            load=capplan.ServingLoad(expert_weights="mxfp4"))
    served = capplan.propose_builds(sq, cat, 1).output("serve gpt-oss-120b", capplan.BuildBudget(amount=capplan.Money("15000", "USD")), sq)
    assert served["weights"] == "bf16" and served["expert_weights"] == "mxfp4"
    assert (served["batch"], served["prompt_tokens"], served["output_tokens"]) == (1, 512, 128)
    assert served["seq_len"] is None and served["finetune"] is None


def test_cards_must_fit_the_case_and_the_board():
    cat = capplan.Catalog.builtin()
    tower = cat.find_chassis("generic-atx-tower")
    # NVIDIA's A100 PCIe brief: a passive heat sink that "requires system air flow".
    fit = capplan.card_fit(cat.find_gpu("a100-pcie-80gb"), 1, tower)
    assert len(fit.problems) == 1 and "passively cooled" in fit.problems[0]
    # Four 3-slot RTX 4090 FE need 12 slot positions; the tower has 9.
    assert "need 12 slot positions" in capplan.card_fit(cat.find_gpu("rtx-4090"), 4, tower).problems[0]
    # Two fit with a free position between them (the board to buy is told so): no caution; three fit
    # the tower only packed, with the caution.
    assert not capplan.card_fit(cat.find_gpu("rtx-4090"), 2, tower).cautions
    assert capplan.card_fit(cat.find_gpu("rtx-4090"), 3, tower).cautions
    # On the board, open-air cards get the free position: 1 and 5.
    assert [s.position for s in capplan.card_fit(cat.find_gpu("rtx-4090"), 2, tower, cat.find_motherboard("ROMED8-2T")).slots] == [1, 5]
    assert [s.position for s in capplan.place_cards(cat.find_motherboard("ROMED8-2T"), 3, 2, 8, gap=1)] == [1, 4, 7]
    g = cat.find_gpu("rtx-4090")
    assert g.slot_width == 3 and g.length == capplan.Length(304, "mm") and g.cooling == capplan.GpuCooling.open_air
    assert g.to_dict()["length_m"] == pytest.approx(0.304)
    # The catalog's board: seven x16 slots; 2-slot cards at 1, 3, 5, 7; only three 3-slot cards.
    board = cat.find_motherboard("ROMED8-2T")
    assert board.socket == cat.find_cpu("epyc-7763").socket == "SP3"
    assert [s.position for s in capplan.place_cards(board, 4, 2, 16)] == [1, 3, 5, 7]
    assert capplan.place_cards(board, 4, 3) == []
    assert [s.position for s in capplan.card_fit(g, 3, tower, board).slots] == [1, 4, 7]
    # A board whose slots go backwards names the field.
    bad = cat.find_motherboard("ROMED8-2T")
    slots = bad.slots
    slots[1].position = 1
    bad.slots = slots
    with pytest.raises(capplan.InputError) as e:
        bad.validate()
    assert e.value.field == "slots[1].position"
    # A user's board in a catalog file: priced, a build uses it.
    mine = capplan.Catalog.builtin()
    mine.load_json("""{"motherboards": [{"id": "asrock-rack-romed8-2t", "street_price":
        {"amount": "649", "currency": "USD", "as_of": "2026-11-20", "source": "a quote"}}]}""")
    assert mine.part_price(capplan.PartKind.motherboard, "asrock-rack-romed8-2t").amount == capplan.Money("649", "USD")


def test_build_and_size_outputs_are_the_cli_json():
    cat = capplan.Catalog.builtin()
    budget = capplan.BuildBudget(amount=capplan.Money("40000", "CNY"),
                                 usd_to_budget=capplan.ExchangeRate("USD", "CNY", decimal.Decimal("7.2"), "2026-11-01"))
    assert budget.usd() == capplan.Money("5555.56", "USD")
    q = capplan.BuildQuery(model=capplan.find_model("llama3.1-8b").transformer(), model_id="llama3.1-8b",
                           task=capplan.SizingTask.finetune, finetune=capplan.FineTune.lora, seq_len=2048, budget=budget.usd())
    r = capplan.propose_builds(q, cat, 2)
    out = r.output("finetune llama3.1-8b lora", budget)
    assert list(out) == ["workload", "budget", "budget_usd", "fx", "builds", "rejected"]
    assert out["budget_usd"] == decimal.Decimal("5555.56")
    assert out["fx"] == {"usd_in_budget_currency": decimal.Decimal("7.2"), "as_of": "2026-11-01"}
    b = out["builds"][0]
    assert b["total_usd"] == r.builds[0].total.amount
    assert b["total_budget_currency"] == r.builds[0].total.amount * decimal.Decimal("7.2")  # exact, no round trip
    assert [i["id"] for i in b["items"]] == [i.id for i in r.builds[0].items]
    with pytest.raises(capplan.InputError) as e:
        capplan.BuildBudget(amount=capplan.Money("40000", "CNY")).usd()
    assert e.value.field == "budget"

    s = capplan.size_system(cat.find_gpu("rtx4090"), gpus=2, parameters=8e9)
    z = s.output(cat.find_gpu("rtx4090"), gpus=2, model="llama3.1-8b")
    assert z["gpu"] == "rtx-4090" and z["task"] == "train" and z["model"] == "llama3.1-8b"
    assert z["ram_bytes"] == s.ram.value and z["cpu_cores"] == s.cpu_cores
    assert z["assumptions"] == s.notes()
    assert [i["item"] for i in z["items"]] == [line.item for line in s.lines]
    assert s.output(cat.find_gpu("rtx4090"))["model"] is None


def test_catalog_show_and_list_outputs():
    gpu = Catalog.builtin().find_gpu("h100-sxm")
    g = gpu.output()
    assert g["id"] == "h100-sxm" and g["memory_bytes"] == gpu.memory.value
    assert g["dense_flop_per_s"]["bf16"] == gpu.peak("bf16").value
    t = capplan.Table(title="t", columns=[capplan.Column(key="id", header="Id", align=capplan.Align.left),
                                          capplan.Column(key="price", header="Price")])
    t.add_row([capplan.Cell.of_text("a"), capplan.Cell.of_money("$1.50", "1.5", 1.5)])
    t.add_row([capplan.Cell.of_text("b"), capplan.Cell.empty()])
    assert t.rows_output() == [{"id": "a", "price": decimal.Decimal("1.5")}, {"id": "b", "price": None}]
    # One rule for a cell's machine value (report/table.hpp machine_value): rows_output, CSV and JSON
    # agree, and an empty cell ("–" or no text) is null everywhere, an empty CSV field.
    t.add_row([capplan.Cell.of_text(""), capplan.Cell.of_number("2", 2.0)])
    assert t.rows_output()[2] == {"id": None, "price": 2.0}
    assert t.render("csv").splitlines()[2:] == ["b,", ",2"]
    assert '{"id": "b", "price": null}' in t.render("json")
    # Money in another currency than the column's: null under it, two columns of its own after it.
    t.add_row([capplan.Cell.of_text("c"), capplan.Cell.of_other_currency("95000.00 CNY", "95000.00", "CNY")])
    assert t.rows[3][1].currency == "CNY" and t.rows[3][1].number is None
    assert t.rows_output()[3] == {"id": "c", "price": None, "price_amount": decimal.Decimal("95000.00"), "price_currency": "CNY"}
    assert t.rows_output()[0]["price_currency"] is None
    assert t.render("csv").splitlines()[0] == "id,price,price_amount,price_currency"
    df = t.to_pandas()
    assert df.loc[3, "price_amount"] == decimal.Decimal("95000.00") and df.loc[3, "price"] is None
    assert "95000.00 CNY" in str(t)
    with pytest.raises(capplan.InputError, match='currency: "yuan" is not a currency code'):
        capplan.Cell.of_other_currency("1 yuan", "1", "yuan")
    # A row built field by field without one cell per column is refused by every form, never read past.
    short = capplan.Table(title="s", columns=t.columns, rows=[[capplan.Cell.of_text("d")]])
    for form in ("json", "csv", "table", "markdown", "html"):
        with pytest.raises(capplan.InputError, match="does not match the table's 2 columns"):
            short.render(form)
    with pytest.raises(capplan.InputError, match="row: 0"):
        short.to_pandas()


def test_training_report_output_is_the_cli_json():
    cat = Catalog.builtin()
    gpu = cat.find_gpu("h100-sxm")
    shape = capplan.find_model("llama2-7b").transformer()
    setup = capplan.TrainingSetup()
    run = capplan.best_training_run(shape, gpu, 8, setup).run
    r = capplan.training_report(cat, "llama2-7b", gpu, 1e9, run, True, setup,
                                footprint=capplan.FootprintOptions(pue=1.2, grid_g_per_kwh=400))
    assert r.time.value == pytest.approx(run.time_for_tokens(1e9).value)
    # energy = IT power x time x PUE; carbon = energy x grid intensity
    # energy over the expected wall clock (failures, restarts and checkpoints included), as billed
    assert r.footprint.kwh == pytest.approx(r.footprint.power.total.value * r.goodput.expected_wall_clock.value * 1.2 / 3.6e6)
    assert r.goodput.expected_wall_clock.value > r.time.value
    assert r.footprint.co2_kg == pytest.approx(r.footprint.kwh * 0.4)
    out = r.output(["a note"])
    assert list(out)[:5] == ["model", "gpu", "gpus", "tokens", "plan"]
    assert out["time_s"] == r.time.value and out["gpus"] == 8 and isinstance(out["gpus"], int)
    assert out["expected_wall_clock_s"] == r.goodput.expected_wall_clock.value
    assert isinstance(out["cost_usd"], decimal.Decimal) and out["assumptions"] == ["a note"]
    # A given plan through training_run, the same report.
    given = capplan.training_run(shape, gpu, run.plan, setup)
    assert capplan.training_report(cat, "llama2-7b", gpu, 1e9, given, False, setup).output()["time_s"] == pytest.approx(out["time_s"])
    with pytest.raises(capplan.InputError, match="tokens"):
        capplan.training_report(cat, "llama2-7b", gpu, -1.0, run, True, setup)


def test_image_training_report_has_a_whole_run():
    # An image model's run: checkpoints of the fp32 weights and SGD momentum (8 B per parameter), the
    # footprint over the expected wall clock, the same keys as a transformer's run.
    cat = Catalog.builtin()
    gpu = cat.find_gpu("a100-sxm-80gb")
    net = capplan.find_image_model("resnet50")
    cluster = capplan.make_cluster(gpu, 8, 8, capplan.Link())
    images = 90 * 1_281_167
    r = capplan.image_training_report(cat, "resnet50", net, cluster, 256, capplan.Precision.bf16, capplan.DataPipeline(cpu_cores=128),
                                      images, goodput=capplan.GoodputConfig(failures_per_gpu_hour=1e-3))
    assert r.goodput.checkpoint.value == pytest.approx(8 * net.parameters) == capplan.image_checkpoint_size(net).value
    assert r.goodput.expected_wall_clock.value > r.time.value
    assert r.footprint.kwh == pytest.approx(r.footprint.power.total.value * r.goodput.expected_wall_clock.value / 3.6e6)
    out = r.output()
    assert out["expected_wall_clock_s"] == r.goodput.expected_wall_clock.value
    assert out["goodput"]["failures_per_gpu_hour"] == 1e-3
    with pytest.raises(capplan.InputError, match="failures_per_gpu_hour"):
        capplan.image_training_report(cat, "resnet50", net, cluster, 256, capplan.Precision.bf16, capplan.DataPipeline(cpu_cores=128),
                                      images, goodput=capplan.GoodputConfig(failures_per_gpu_hour=0.9,
                                                                             restart=capplan.Duration(3, "h")))


def test_size_system_checkpoints_per_optimizer():
    # An image model's checkpoints (fp32 weights and SGD momentum) are 8 B per parameter, Adam's 14.
    gpu = Catalog.builtin().find_gpu("a100-sxm-80gb")
    adam = capplan.size_system(gpu, 8, parameters=25.6e6)
    sgd = capplan.size_system(gpu, 8, parameters=25.6e6, checkpoint_bytes_per_param=8)
    assert adam.storage.value - sgd.storage.value == pytest.approx(3 * 25.6e6 * 6)
    with pytest.raises(capplan.InputError, match="checkpoint_bytes_per_param"):
        capplan.size_system(gpu, 8, parameters=25.6e6, checkpoint_bytes_per_param=0)


def test_serving_report_output_is_the_cli_json():
    cat = Catalog.builtin()
    gpu = cat.find_gpu("h100-sxm")
    shape = capplan.find_model("llama3.1-70b").transformer()
    load = capplan.ServingLoad(batch=32)
    r = capplan.serving_report(cat, "llama3.1-70b", gpu, capplan.serving_run(shape, gpu, load, 4), load)
    out = r.output()
    assert out["plan"]["gpus"] == 4 and out["fits"] is True
    assert out["ttft_s"] == r.run.estimate.prefill.value
    assert isinstance(out["cost_usd_per_million_tokens"], decimal.Decimal)
    assert out["output_tokens_per_s_per_gpu"] == pytest.approx(r.output_tokens_per_s_per_gpu())
    small = capplan.serving_report(cat, "llama3.1-70b", gpu, capplan.serving_run(shape, gpu, load, 1), load)
    assert small.output(would_fit=["--gpus 4"])["would_fit"] == ["--gpus 4"] and "ttft_s" not in small.output()


def test_exchange_rates_bring_cny_offers_into_the_ranking():
    q = PurchaseQuery(model=capplan.find_model("llama2-7b").transformer(), model_name="llama2-7b", tokens=1e9)
    q.filters.systems = False
    q.filters.gpus = False
    quoted = capplan.purchase_table(q, Catalog.builtin())
    without = {r.option: r for r in quoted.rows}
    # Without a rate a CNY rent never sits under a key that names USD (issue 16): null there, the figure
    # and its code under keys of their own, in the JSON objects and in the DataFrame's columns.
    row = next(e for e in quoted.output()["rows"] if e["option"] == "cn-rental-4x-a100")
    assert row["rent_cost_usd"] is None
    assert row["rent_cost"] == without["cn-rental-4x-a100"].rent_cost.rounded_to(2).amount and row["rent_cost_currency"] == "CNY"
    usd_row = next(e for e in quoted.output()["rows"] if isinstance(e["rent_cost_usd"], decimal.Decimal))
    assert "rent_cost" not in usd_row and "rent_cost_currency" not in usd_row
    df = quoted.to_pandas().set_index("option")
    assert df.loc["cn-rental-4x-a100", "rent_cost_usd"] is None
    assert df.loc["cn-rental-4x-a100", "rent_cost_currency"] == "CNY"
    assert df.loc[usd_row["option"], "rent_cost_currency"] is None
    q.fx = [capplan.ExchangeRate("CNY", "USD", decimal.Decimal("0.138888888889"), "2026-11-01")]  # 1 / 7.2, to 12 places
    rows = {r.option: r for r in capplan.purchase_table(q, Catalog.builtin()).rows}
    cny, usd = without["cn-rental-4x-a100"], rows["cn-rental-4x-a100"]
    assert cny.rent_cost.currency == capplan.Currency.CNY and usd.rent_cost.currency == capplan.Currency.USD
    # The same rent at 7.2 CNY per USD, to the cent.
    assert abs(float(usd.rent_cost.amount) * 7.2 - float(cny.rent_cost.amount)) < 0.05
    assert "converted at 1 USD = 7.2 CNY (2026-11-01)" in usd.rent_from
    # train: run_footprint takes the same rates; the cheapest RTX 4090 offer is then a CNY one (AutoDL's
    # 1.88 CNY/h = $0.2611, below the 2,000 CNY/month rental's $0.3805/h and RunPod's $0.60).
    gpu = Catalog.builtin().find_gpu("rtx-4090")
    f = capplan.run_footprint(Catalog.builtin(), gpu, 1, capplan.Duration(1, "h"), 1.0,
                              capplan.FootprintOptions(fx=q.fx))
    assert "autodl-rtx-4090" in f.price_from and f.price.currency == capplan.Currency.USD
    assert abs(float(f.cost.amount) - 1.88 / 7.2) < 0.001


def test_row_cost_comparison_is_the_break_even_and_its_chart(table):
    # What a row's B/E column comes from (plan/purchase.hpp row_cost_comparison), and the chart the
    # compare report draws for it.
    rows = [r for r in table.rows if r.break_even_month is not None]
    assert rows
    for r in rows:
        c = capplan.row_cost_comparison(r, table.query)
        assert c is not None and c.break_even_month == r.break_even_month
        assert c.owned.purchase == r.purchase
        assert len(c.months) == table.query.months + 1
    svg = capplan.cost_chart_svg(capplan.row_cost_comparison(rows[0], table.query), title="Own versus rent: " + rows[0].option)
    assert isinstance(svg, capplan.Svg)
    assert f'data-x="{rows[0].break_even_month}"' in str(svg)
    assert str(svg).count('<polyline class="series"') == 2 and rows[0].option in str(svg)
    # A row without a purchase price (none here are cloud rows, so a row without a price) has nothing to compare.
    for r in table.rows:
        if r.purchase is None:
            assert capplan.row_cost_comparison(r, table.query) is None


def test_rent_only_accelerator_has_no_energy_figure_not_zero():
    # TPU v6e: Google publishes no chip power, so energy and carbon are None and the JSON keys null.
    cat = Catalog.builtin()
    tpu = cat.find_gpu("Trillium")
    assert tpu.id == "tpu-v6e" and tpu.form_factor == capplan.FormFactor.cloud and tpu.vendor == capplan.Vendor.google
    assert tpu.chip_link_domain == 256 and tpu.chip_link_bandwidth.value == pytest.approx(400e9)
    assert cat.find_gpu("trn2").vendor == capplan.Vendor.aws
    power = capplan.gpu_it_power(tpu, 256)
    assert not power.known and "no published power figure" in power.basis
    shape = capplan.find_model("llama3.1-8b").transformer()
    setup = capplan.TrainingSetup()
    run = capplan.best_training_run(shape, tpu, 256, setup).run
    r = capplan.training_report(cat, "llama3.1-8b", tpu, 1e9, run, True, setup)
    assert r.footprint.kwh is None and r.footprint.co2_kg is None
    out = r.output([])
    assert out["energy_kwh"] is None and out["co2e_kg"] is None and out["it_power_w"] is None
    assert isinstance(out["cost_usd"], decimal.Decimal)  # priced from gcp-tpu-v6e
    assert capplan.gpu_it_power(cat.find_gpu("h100-sxm"), 1).known
    # What power caps compare against: the estimate for a GPU, NVIDIA's stated maximum for a DGX B200.
    h = capplan.gpu_it_power(cat.find_gpu("h100-sxm"), 8)
    assert h.planning == h.total
    dgx = capplan.system_it_power(cat.find_system("dgx-b200"), cat)
    assert dgx.planning == capplan.Power(14.3, "kW") and dgx.total < dgx.planning
    # An SoC's TDP holds its CPU: DGX Spark's box adds 48 W, not a desktop host, and stays inside its 240 W adapter.
    spark = capplan.gpu_it_power(cat.find_gpu("dgx-spark"), 1)
    assert spark.total.value == pytest.approx((140 + 48) / 0.9) and spark.total.value * 0.9 < 240  # DC against the adapter's output
    assert capplan.SystemPowerAssumptions().soc_box() == capplan.Power(48, "W")
    # A workstation card (blower-cooled RTX 6000 Ada) gets a desktop host; a passive L40S the server factor.
    assert capplan.desktop_card(cat.find_gpu("rtx-6000-ada")) and not capplan.desktop_card(cat.find_gpu("l40s"))
    assert capplan.gpu_it_power(cat.find_gpu("rtx-6000-ada"), 1).total.value == pytest.approx((300 + 218) / 0.9)
    # Consumer cards: a desktop host for every 2 cards, and never fewer hosts than nodes timed.
    rtx = cat.find_gpu("rtx-4090")
    assert capplan.gpu_it_power(rtx, 4).total.value == pytest.approx((4 * 450 + 2 * 218) / 0.9)
    assert capplan.gpu_it_power(rtx, 4, gpus_per_node=1).total.value == pytest.approx(4 * (450 + 218) / 0.9)
    with pytest.raises(capplan.InputError, match="gpus_per_node"):
        capplan.gpu_it_power(rtx, 4, gpus_per_node=-1)
    # A node of 8 cards is a 2-socket GPU server: 2 x 280 W CPUs, 16 DIMMs, drive, board, 10 % fans / 0.922.
    loads = 2 * 280 + 16 * 5 + 8
    server = (8 * 450 + loads + 100 + 0.1 * (8 * 450 + loads)) / 0.922
    assert capplan.gpu_it_power(rtx, 8, gpus_per_node=8).total.value == pytest.approx(server)
    # A replica of 4 on a node of 8: half the host.
    half = (4 * 450 + 0.5 * (loads + 100) + 0.1 * (4 * 450 + 0.5 * loads)) / 0.922
    assert capplan.gpu_it_power(rtx, 4, gpus_per_node=8).total.value == pytest.approx(half)
    a = capplan.HostAllowance()
    assert a.server_cpu_pcie4 == capplan.Power(280, "W") and a.server_dimms == 16 and a.server_psu_load == 0.8
    a.server_dimms = 100
    with pytest.raises(capplan.InputError, match="server_dimms"):
        capplan.gpu_it_power(rtx, 8, a, 8)
    # One socket (the GPUs on one CPU's root ports): 1 CPU and 8 DIMMs.
    one = capplan.HostAllowance(server_sockets=1)
    loads1 = 280 + 8 * 5 + 8
    single = (8 * 450 + loads1 + 100 + 0.1 * (8 * 450 + loads1)) / 0.922
    assert capplan.gpu_it_power(rtx, 8, one, 8).total.value == pytest.approx(single)
    one.server_sockets = 3
    with pytest.raises(capplan.InputError, match="server_sockets"):
        capplan.gpu_it_power(rtx, 8, one, 8)


def test_purchase_rows_of_rent_only_parts_have_no_energy():
    q = PurchaseQuery(model=capplan.find_model("llama2-7b").transformer(), model_name="llama2-7b",
                      model_source="preset", tokens=1e9)
    q.filters.systems = False
    q.filters.form_factor = capplan.FormFactor.cloud
    t = capplan.purchase_table(q, Catalog.builtin())
    timed = [r for r in t.rows if r.estimated()]
    cat = Catalog.builtin()
    assert timed and all(cat.find_gpu(r.gpu_id).form_factor == capplan.FormFactor.cloud for r in timed)
    assert all(r.energy is None and r.co2e_kg is None and not r.power.known for r in timed)
    d = timed[0].to_dict()
    assert d["energy_j"] is None and d["co2e_kg"] is None


def test_rents_are_billed_as_sold():
    # A reserved price bills at least its term, a monthly rent whole months (docs/cost.md).
    cat = Catalog.builtin()
    mi = cat.find_offer("do-mi350x")
    assert mi.min_term == capplan.Duration(1, "year")
    assert mi.billed_time(capplan.PriceKind.reserved, capplan.Duration(10, "h")) == capplan.Duration(8760, "h")
    # An EC2 Capacity Block is booked and extended in whole days: 30 h bills 2 days, 15 days 15.
    p5 = cat.find_offer("p5.48xlarge")
    assert p5.billed_time(capplan.PriceKind.reserved, capplan.Duration(30, "h")).value == pytest.approx(48 * 3600)
    assert p5.billed_time(capplan.PriceKind.reserved, capplan.Duration(15 * 24, "h")).value == pytest.approx(15 * 86400)
    f = capplan.run_footprint(cat, cat.find_gpu("mi350x"), 8, capplan.Duration(10, "h"), 80.0)
    assert f.price_kind == capplan.PriceKind.reserved
    assert f.billed_gpu_hours == pytest.approx(70080)
    assert f.cost == capplan.Money("333580.8", "USD")
    assert "billed 8,760 h (its 1-year term) for a 10 h run" in f.price_from
    rental = cat.find_offer("cn-rental-rtx-4090-low")
    assert rental.billed_time(capplan.PriceKind.monthly, capplan.Duration(12, "h")) == capplan.Duration(730, "h")
    three = rental.replace(min_term=capplan.Duration(3, "months"))
    assert three.billed_time(capplan.PriceKind.monthly, capplan.Duration(12, "h")) == capplan.Duration(2190, "h")
    # Refused with the field named: a term that could be the reserved or the monthly price's, a price the offer lacks.
    with pytest.raises(capplan.InputError, match="min_term"):
        cat.find_offer("p5.48xlarge").replace(monthly=capplan.Money("30000", "USD")).validate()
    with pytest.raises(capplan.InputError, match="on_demand"):
        rental.billed_time(capplan.PriceKind.on_demand, capplan.Duration(1, "h"))
    # The break-even side: a reserved rental with a term shorter than a month bills max(hours, term).
    r = capplan.RentedOption.reserved("block", capplan.MoneyRate("1.50 USD/h"))
    r.term = capplan.Duration(1, "day")
    assert capplan.rented_month(r, 0.01).cost == capplan.Money("36", "USD")


def test_a_reserved_only_gpu_row_rents_at_its_term_for_training():
    q = PurchaseQuery(model=capplan.find_model("llama2-7b").transformer(), model_name="llama2-7b", tokens=1e9)
    q.filters.systems = False
    q.filters.cloud = False
    rows = {r.option: r for r in capplan.purchase_table(q, Catalog.builtin()).rows}
    mi = rows["mi350x"]
    assert mi.rent_kind == capplan.PriceKind.reserved and mi.rent_offer == "do-mi350x"
    assert mi.rent_billed == capplan.Duration(8760, "h")
    out = [e for e in capplan.purchase_table(q, Catalog.builtin()).output()["rows"] if e["option"] == "mi350x"][0]
    assert out["rent_kind"] == "reserved" and out["rent_billed_hours"] == pytest.approx(8760)
    # Whole instances: a row of fewer GPUs than its offer's instance rents the instance, and says so.
    table = capplan.purchase_table(q, Catalog.builtin())
    gb200 = {r.option: r for r in table.rows}["gb200"]
    assert gb200.gpus == 1 and gb200.rent_billed_gpus == 4
    assert [e for e in table.output()["rows"] if e["option"] == "gb200"][0]["rent_billed_gpus"] == 4
    assert any("gb200 4 for 1" in a for a in table.assumptions)


def test_offers_left_out_say_why_a_gpu_has_no_rent():
    cat = Catalog.builtin()
    assert capplan.offers_left_out(cat, "a800-sxm4-80gb") == ["autodl-a800 (in CNY: --fx CNY=RATE@DATE converts it)"]
    assert capplan.offers_left_out(cat, "mi350x", for_run=False) == ["do-mi350x (reserved only: a commitment, not an hourly price)"]
    assert capplan.offers_left_out(cat, "mi350x") == []  # a run rents it at its 1-year term
    f = capplan.run_footprint(cat, cat.find_gpu("a800-sxm4-80gb"), 1, capplan.Duration(1, "h"), 1.0)
    assert f.price is None and "autodl-a800" in f.no_price_why


def test_rents_come_from_instances_that_hold_the_node():
    cat = Catalog.builtin()
    # Every T4 offer is a 1-GPU instance: none holds a TP group of 2, and each says so.
    left = capplan.offers_left_out(cat, "t4", node_gpus=2)
    assert "colab-pro (instances of 1 GPU; the plan needs 2 in one node)" in left
    assert capplan.offers_left_out(cat, "t4") == []
    # A marketplace record sold by the GPU holds 8 of one host.
    runpod = cat.find_offer("runpod-rtx-4090")
    assert runpod.max_gpus == 8 and runpod.gpu_count == 1 and runpod.instance_gpus() == 8
    assert capplan.instance_holds(runpod, cat.find_gpu("rtx-4090"), 8)
    assert not capplan.instance_holds(cat.find_offer("colab-pro"), cat.find_gpu("t4"), 2)
    h = capplan.Duration(1, "h")
    f = capplan.run_footprint(cat, cat.find_gpu("rtx-4090"), 6, h, 6.0, gpus_per_node=6)
    assert f.price_offer in ("runpod-rtx-4090", "vast-rtx-4090") and f.instance_factor == 1.0
    # Serving: a replica's TP group must fit an instance, and replicas share one.
    hourly = capplan.FootprintOptions(bill_as_sold=False, node_gpus=2)
    s = capplan.run_footprint(cat, cat.find_gpu("t4"), 2, h, 2.0, hourly)
    assert s.price is None and "colab-pro (instances of 1 GPU" in s.no_price_why
    with pytest.raises(capplan.InputError, match="node_gpus"):
        capplan.run_footprint(cat, cat.find_gpu("t4"), 1, h, 1.0, capplan.FootprintOptions(node_gpus=-1))
    with pytest.raises(capplan.InputError, match="max_gpus: 4 needs gpu_count 1"):
        capplan.CloudOffer(id="x", provider="X", instance_type="x", gpu_count=8, max_gpus=4, gpu_id="t4",
                           on_demand=capplan.MoneyRate("8", "USD"), as_of="2026-11-01", source="test").validate()


def test_serving_keeps_tp_within_max_tp():
    cat = Catalog.builtin()
    shape = capplan.find_model("deepseek-r1-distill-qwen-32b").transformer()
    load = capplan.ServingLoad(weights="q4_0", batch=4, prompt=8064)
    t4 = cat.find_gpu("t4")
    assert capplan.smallest_serving_run(shape, t4, load).tp == 2
    one = capplan.smallest_serving_run(shape, t4, load, max_tp=1)
    assert (one.tp, one.pp) == (1, 2)
    assert capplan.min_gpus_for_serving(shape, load.config(), t4.memory, max_tp=1).tensor == 1
    with pytest.raises(capplan.InputError, match="max_tp"):
        capplan.min_gpus_for_serving(shape, load.config(), t4.memory, max_tp=0)


def test_serving_stages_across_nodes_cross_the_fabric():
    cat = Catalog.builtin()
    shape = capplan.find_model("llama3.1-70b").transformer()
    r4090 = cat.find_gpu("rtx4090")
    one_box = capplan.ServingLoad(weights="q4_0", prompt=4000)
    two_boxes = capplan.ServingLoad(weights="q4_0", prompt=4000, gpus_per_node=1)
    # Consumer cards: a desktop's 10 GbE port; data-centre GPUs: their usual fabric.
    assert capplan.serving_fabric(r4090, two_boxes).id == "eth-10"
    assert capplan.serving_fabric(cat.find_gpu("h100-sxm"), two_boxes).id == "ib-ndr"
    inside = capplan.serving_run(shape, r4090, one_box, tp=1, pp=2)
    across = capplan.serving_run(shape, r4090, two_boxes, tp=1, pp=2)
    # The prompt's 4,000 x 2 x 8,192 fp16 values cross 10 GbE at 70 % of line rate, plus 30 us.
    wire = 4000 * 2 * 8192 * 2 / (10e9 / 8 * 0.70) + 30e-6
    stage = [t for t in across.estimate.breakdown.terms if t.name == "prefill: pipeline stage transfers"][0]
    assert stage.time.value == pytest.approx(wire, rel=1e-9)
    assert across.estimate.prefill.value > inside.estimate.prefill.value + 0.9 * wire
    report = capplan.serving_report(cat, "llama3.1-70b", r4090, across, two_boxes)
    assert (report.nodes, report.fabric) == (2, "eth-10")
    assert report.output()["plan"]["fabric"] == "eth-10"
    # No network between nodes, or TP wider than a node: errors naming the field.
    with pytest.raises(capplan.InputError, match="^fabric"):
        capplan.serving_run(shape, r4090, capplan.ServingLoad(weights="q4_0", gpus_per_node=1, fabric=capplan.find_fabric("none")), tp=1, pp=2)
    with pytest.raises(capplan.InputError, match="^tp"):
        capplan.serving_run(shape, r4090, two_boxes, tp=2, pp=2)
    with pytest.raises(capplan.InputError, match="gpus_per_node"):
        capplan.ServingLoad(gpus_per_node=-1).validate()


def test_a_rent_across_nodes_comes_from_instances_whose_network_carries_it():
    cat = Catalog.builtin()
    a100 = cat.find_gpu("a100-sxm-40gb")
    p4d, azure = cat.find_offer("aws-p4d.24xlarge"), cat.find_offer("azure-nd96asr-v4")
    # p4d: 400 Gb/s EFA for 8 GPUs at 85 %; a DGX A100 node is timed on HDR 200 Gb/s a GPU at 85 %.
    assert capplan.offer_network_rate(p4d, a100).value == pytest.approx(50e9 / 8 * 0.85)
    cluster = capplan.make_cluster(a100, 16, 8, capplan.usual_fabric(a100).link(8))
    need = capplan.network_timed(cluster)
    assert need.value == pytest.approx(200e9 / 8 * 0.85)
    assert capplan.network_timed(capplan.make_cluster(a100, 8, 8, capplan.usual_fabric(a100).link(8))).value == 0
    assert not capplan.network_holds(p4d, a100, 16, need)
    assert capplan.network_holds(p4d, a100, 8, need)  # within one instance
    assert capplan.network_holds(azure, a100, 16, need)
    left = capplan.offers_left_out(cat, "a100-sxm-40gb", node_gpus=8, gpus=16, network=need)
    assert ("aws-p4d.24xlarge (its instances carry 5.31 GB/s a GPU between them (p4d.24xlarge's 400 Gb/s EFA for 8 GPUs at 85 %), "
            "less than the 21.2 GB/s a GPU the run is timed on)") in left
    assert capplan.network_shortfall(p4d, a100, need).startswith("its instances carry 5.31 GB/s")
    h = capplan.Duration(1, "h")
    o = capplan.FootprintOptions()
    o.network = need
    f = capplan.run_footprint(cat, a100, 16, h, 16.0, o, 8)
    assert f.price_offer == "azure-nd96asr-v4"
    assert f.passed_over.startswith("aws-p4d.24xlarge, whose instances carry 5.31 GB/s a GPU between them")
    assert capplan.run_footprint(cat, a100, 16, h, 16.0, capplan.FootprintOptions(), 8).price_offer == "aws-p4d.24xlarge"
    with pytest.raises(capplan.InputError, match="network"):
        capplan.network_holds(p4d, a100, 16, capplan.Bandwidth(-1, "GB/s"))
    o.network = capplan.Bandwidth(-1, "GB/s")  # NaN is refused by Bandwidth itself
    o.price_per_gpu_hour = capplan.MoneyRate("2.00", "USD")
    with pytest.raises(capplan.InputError, match="network"):
        capplan.run_footprint(cat, a100, 16, h, 16.0, o, 8)


def test_an_overlay_between_instances_carries_no_collectives():
    cat = Catalog.builtin()
    pod = cat.find_offer("runpod-h100-sxm")
    assert pod.network_kind == capplan.InstanceNetwork.overlay
    assert pod.network.value == pytest.approx(0.1e9 / 8)
    h100 = cat.find_gpu("h100-sxm")
    assert capplan.offer_network(pod, h100).none()
    assert capplan.offer_network_rate(pod, h100).value == 0
    need = capplan.network_timed(capplan.make_cluster(h100, 16, 8, capplan.usual_fabric(h100).link(8)))
    assert not capplan.network_holds(pod, h100, 16, need)
    assert capplan.network_holds(pod, h100, 8, need)
    assert capplan.network_shortfall(pod, h100, need).startswith("its instances reach each other over an overlay only of 0.1 Gb/s")


def test_compare_rows_time_the_kept_batch_beside_an_oversized_default():
    # Llama 2 7B, 20B tokens in 2 hours on AMD cards: the Radeon Pro W7900 row takes thousands of GPUs,
    # a sequence a GPU; beside it, the batch model-parallel replicas keep on the same GPUs.
    q = PurchaseQuery(model=capplan.find_model("llama2-7b").transformer(), model_name="llama2-7b",
                      model_source="preset", tokens=2e10)
    q.filters.systems = False
    q.filters.cloud = False
    q.filters.vendor = capplan.Vendor.amd
    q.filters.deadline = capplan.Duration(2, "h")
    t = capplan.purchase_table(q, Catalog.builtin())
    row = next(r for r in t.rows if r.option == "radeon-pro-w7900")
    assert capplan.default_batch_oversized(4096, row.gpus)
    assert row.kept_batch == capplan.model_parallel_batch(4096, row.gpus) < row.training.job.global_batch
    assert row.kept_batch_run is not None and row.kept_batch_plans > 0
    assert row.kept_batch_run.cluster.gpus_per_node == row.training.cluster.gpus_per_node
    assert row.kept_batch_run.job.global_batch == row.kept_batch and row.kept_batch_run.gpus() == row.gpus
    assert row.kept_batch_time.value == pytest.approx(row.kept_batch_run.time_for_tokens(2e10).value)
    note = next(n for n in t.assumptions if n.startswith("BATCH: "))
    segment = note[note.index(f"radeon-pro-w7900: {row.kept_batch} sequences"):].split(";")[0]
    assert f"--global-batch {row.kept_batch})" in segment
    assert ("past the deadline" in segment) == row.kept_batch_late
    # Rows on fewer GPUs keep none.
    assert all(r.kept_batch == 0 and r.kept_batch_run is None for r in t.rows
               if r.estimated() and not capplan.default_batch_oversized(4096, r.gpus))


def test_default_global_batch_is_about_4m_tokens_and_flags_more():
    # 4,096-token sequences: 1,024 of them, rounded up to a multiple of the GPUs; from twice that on, flagged.
    assert capplan.default_global_batch(4096, 8) == 1024
    assert capplan.default_global_batch(4096, 600) == 1200
    assert capplan.default_global_batch(4096, 16384) == 16384
    assert capplan.default_batch_sequences(4096) == 1024
    # What model-parallel replicas keep instead (train's note beside an oversized default).
    assert capplan.model_parallel_batch(4096, 16384) == 1024
    assert capplan.model_parallel_batch(4096, 4032) == 2016
    with pytest.raises(capplan.InputError) as e:
        capplan.model_parallel_batch(4096, 0)
    assert e.value.field == "gpus"
    assert not capplan.default_batch_oversized(4096, 1500)
    assert capplan.default_batch_oversized(4096, 2048)
    with pytest.raises(capplan.InputError) as e:
        capplan.default_global_batch(4096, 0)
    assert e.value.field == "gpus"
