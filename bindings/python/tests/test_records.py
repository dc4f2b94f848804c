"""Hardware records, the catalog and workload shapes: capplan.Catalog, GpuSpec, TransformerShape, presets."""

import decimal
import json

import pytest

import capplan
from capplan import Catalog, DataSize, FlopRate, GpuSpec, Money, Power, Precision


@pytest.fixture(scope="module")
def cat():
    return Catalog.builtin()


def test_find_gpu_by_human_name(cat):
    gpu = cat.find_gpu("H100 SXM")
    assert gpu.id == "h100-sxm"
    assert gpu.memory == DataSize(80, "GB")
    assert gpu.vendor == capplan.Vendor.nvidia
    # Dense bf16 peak of the H100 SXM: 989 TFLOP/s (NVIDIA H100 datasheet, dense figure).
    assert gpu.peak("bf16").to("TFLOP/s") == pytest.approx(989, rel=0.01)
    assert gpu.peak(Precision.bf16) == gpu.dense["bf16"]
    assert isinstance(gpu.dense["bf16"], FlopRate)


def test_unknown_gpu_raises_lookup_error_with_the_cpp_suggestions(cat):
    with pytest.raises(capplan.LookupError) as e:
        cat.find_gpu("H100 SXMM")
    assert "is not in the catalog; closest:" in str(e.value)
    assert "h100-sxm" in str(e.value)
    assert isinstance(e.value, ValueError)
    assert e.value.field == "gpu"


def test_ambiguous_name_names_every_match(cat):
    with pytest.raises(capplan.LookupError, match="ambiguous"):
        cat.find_gpu("A100")


def test_systems_offers_and_prices(cat):
    system = cat.find_system("dgx-a100")
    assert system.gpus_per_node() == 8
    assert system.gpu_id() == "a100-sxm-40gb"
    assert system.topology == capplan.Topology.nvswitch
    price = cat.system_price(system)
    assert price.known()
    offer = cat.find_offer("aws-p5.48xlarge")
    assert offer.gpu_count == 8
    # Per GPU-hour is the instance price divided by the GPUs, exactly.
    assert offer.per_gpu_hour() * 8 == offer.per_instance_hour()
    assert all(o.gpu_id == "h100-sxm" for o in cat.offers_for_gpu("H100 SXM"))


def test_listing_sizes(cat):
    assert len(cat.gpus()) > 10 and len(cat.systems()) > 3 and len(cat.cloud_offers()) > 3
    assert len(cat) >= len(cat.gpus()) + len(cat.systems())
    assert "GPUs" in repr(cat)


def test_record_keyword_construction_repr_and_dict():
    gpu = GpuSpec(id="my-gpu", name="My GPU", memory=DataSize(24, "GB"),
                  memory_bandwidth=capplan.Bandwidth(1, "TB/s"), dense={"bf16": FlopRate(100, "TFLOP/s")},
                  tdp=Power(300, "W"), source="a datasheet", as_of="2026-01-01", form_factor="pcie")
    gpu.validate()
    assert gpu.form_factor == capplan.FormFactor.pcie
    assert "GpuSpec(id='my-gpu'" in repr(gpu)
    d = gpu.to_dict()
    assert d["memory_bytes"] == 24e9
    assert d["tdp_w"] == 300.0
    assert d["dense_flop_per_s"] == {"bf16": 1e14}
    assert d["form_factor"] == "pcie"
    assert d["launch_price"] is None
    json.dumps(d)  # plain values only
    assert gpu == GpuSpec(**{k: getattr(gpu, k) for k in gpu.__capplan_fields__})
    assert gpu != gpu.replace(tdp=Power(350, "W"))
    assert "<table" in gpu._repr_html_() and "my-gpu" in gpu._repr_html_()


def test_a_new_record_member_needs_no_binding_code(cat):
    # GpuSpec.usable_memory is one line in gpu.hpp plus its name in BOOST_DESCRIBE_STRUCT.
    assert "usable_memory" in GpuSpec.__capplan_fields__
    assert cat.find_gpu("mi325x").usable_memory == DataSize(262128, "MiB")  # amd-smi, AMD's install guide
    assert cat.find_gpu("mi325x").replace(usable_memory=None).usable_memory is None
    assert cat.find_gpu("h100-sxm").usable_memory == DataSize(81559, "MiB")
    assert cat.find_gpu("h200-sxm").usable_memory == DataSize(143771, "MiB")  # nvidia-smi, in-house
    assert cat.find_gpu("b200").usable_memory == DataSize(183359, "MiB")  # nvidia-smi, public logs
    gpu = cat.find_gpu("mi325x").replace(usable_memory=DataSize(262144, "MiB"))
    assert gpu.usable_memory == DataSize(262144, "MiB")
    assert gpu.to_dict()["usable_memory_bytes"] == 262144 * 2**20
    mine = Catalog()
    mine.load_json(json.dumps({"gpus": [{"id": "x", "name": "X", "vendor": "amd", "form_factor": "oam",
                                         "memory": "192 GB", "usable_memory": "191.5 GB",
                                         "memory_bandwidth": "5.3 TB/s", "tdp": "750 W",
                                         "source": "s", "as_of": "2026-01-01"}]}))
    assert mine.find_gpu("x").usable_memory == DataSize(191.5, "GB")
    assert json.loads(mine.to_json())["gpus"][0]["usable_memory"] == "191.5 GB"


def test_money_in_records_is_decimal_with_the_currency_in_the_key(cat):
    gpu = cat.find_gpu("RTX 4090")
    d = gpu.to_dict()
    price_key = "launch_price" if gpu.launch_price is not None else "street_price"
    assert isinstance(d[price_key]["amount_usd"], decimal.Decimal)
    assert isinstance(gpu.to_dict()["aliases"], list)


def test_bad_keywords_raise_type_error_naming_the_field():
    with pytest.raises(TypeError, match="GpuSpec: unknown field 'memroy'"):
        GpuSpec(memroy=DataSize(1, "GB"))
    with pytest.raises(TypeError, match=r"GpuSpec\.memory: 80 \(int\) is not accepted; expected DataSize"):
        GpuSpec(memory=80)


def test_invalid_record_raises_the_cpp_message():
    gpu = GpuSpec(id="x", name="X", memory=DataSize(20, "TB"), source="s", as_of="2026-01-01",
                  tdp=Power(100, "W"))
    with pytest.raises(capplan.InputError, match="memory") as e:
        gpu.validate()
    assert e.value.field == "memory"


def test_user_catalog_file_adds_and_overrides(tmp_path, cat):
    doc = {
        "format": "capplan-catalog",
        "version": 1,
        "gpus": [{"id": "h100-sxm", "street_price": {"amount": "25000", "currency": "USD", "as_of": "2026-10-01",
                                                     "source": "a quote"}}],
    }
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc))
    mine = Catalog.builtin()
    summary = mine.load_file(str(path))
    assert summary.total_replaced() == 1 and summary.total_added() == 0
    assert mine.find_gpu("h100-sxm").street_price.amount == Money("25000", "USD")
    assert cat.find_gpu("h100-sxm").street_price != mine.find_gpu("h100-sxm").street_price  # the copy is untouched
    again = Catalog.from_json(mine.to_json())
    assert again.find_gpu("h100-sxm").street_price.amount == Money("25000", "USD")


def test_bad_catalog_file_raises_with_file_and_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "capplan-catalog", "version": 1, "gpus": [{"id": "h100-sxm", "tdp": "lots"}]}')
    with pytest.raises(capplan.InputError) as e:
        Catalog.builtin().load_file(str(path))
    assert "bad.json" in str(e.value) and "tdp" in str(e.value)


def test_catalog_warnings(cat):
    ws = cat.warnings(today="2030-01-01")
    assert ws and all(isinstance(w, capplan.CatalogWarning) for w in ws)
    assert any(w.kind == capplan.WarningKind.stale_price for w in ws)
    with pytest.raises(capplan.InputError, match="today"):
        cat.warnings(today="not a date")
    # What one answer used, in its order, each entry's once.
    used = cat.warnings_for(["cloud offer gcp-a3-highgpu-8g", "gpu h100-sxm", "gpu h100-sxm", "gpu gaudi3"], today="2026-11-26")
    assert [w.entry for w in used] == ["cloud offer gcp-a3-highgpu-8g", "gpu h100-sxm"]  # Gaudi 3: a launch price, never stale
    assert cat.warnings_for([], today="2026-11-26") == []


def test_add_or_replace_validates(cat):
    mine = Catalog.builtin()
    with pytest.raises(capplan.InputError):
        mine.add_or_replace(GpuSpec(id="bad"))
    mine.add_or_replace(GpuSpec(id="tiny", name="Tiny", memory=DataSize(8, "GB"), tdp=Power(50, "W"),
                                memory_bandwidth=capplan.Bandwidth(100, "GB/s"), source="s", as_of="2026-01-01"))
    assert mine.find_gpu("tiny").name == "Tiny"


# Workload

def test_presets_and_exact_parameter_counts():
    preset = capplan.find_model("Llama2-7B")
    assert preset.is_transformer()
    shape = preset.transformer()
    n = capplan.parameter_count(shape)
    assert isinstance(n, int)
    # Llama-2-7B: 6,738,415,616 parameters (huggingface.co/meta-llama/Llama-2-7b-hf safetensors).
    assert n == 6_738_415_616
    assert shape.parameter_count() == n
    b = capplan.parameter_breakdown(shape)
    assert b.total() == n and b.non_embedding() == n - b.embedding
    assert capplan.find_model("resnet50").generic().params > 0


def test_model_names_as_repositories_write_them_and_released_formats():
    assert capplan.find_model("meta-llama/Llama-3.1-8B-Instruct").id == "llama3.1-8b"
    assert capplan.find_model("mistralai/Mixtral-8x7B-Instruct-v0.1").id == "mixtral-8x7b"
    with pytest.raises(capplan.LookupError, match="Qwen3-8B-FP8"):
        capplan.find_model("Qwen/Qwen3-8B-FP8")
    oss = capplan.find_model("openai/gpt-oss-120b")
    assert (oss.released_weights, oss.released_expert_weights) == ("bf16", "mxfp4")
    assert "MXFP4" in oss.released_source
    assert capplan.find_model("deepseek-r1").released_weights == "fp8"
    assert capplan.find_model("llama3.1-8b").released_weights == ""


def test_unknown_model_lists_the_closest_ids():
    with pytest.raises(capplan.LookupError, match="closest: llama2-7b"):
        capplan.find_model("llama2-7")


def test_transformer_shape_from_keywords_and_its_errors():
    shape = capplan.TransformerShape(name="mine", layers=32, hidden=4096, heads=32, kv_heads=8, ffn_hidden=14336,
                                     gated_mlp=True, vocab=32000, seq_len=8192)
    assert shape.attention_kind() == capplan.AttentionKind.gqa
    assert shape.resolved().head_dim == 128
    with pytest.raises(capplan.InputError, match="kv_heads: 7 does not divide heads") as e:
        shape.replace(kv_heads=7).validate()
    assert e.value.field == "kv_heads"
    moe = shape.replace(moe=capplan.MoeShape(experts=8, experts_per_token=2, moe_ffn_hidden=14336))
    assert capplan.active_parameter_count(moe) < capplan.parameter_count(moe)
    assert moe.to_dict()["moe"]["experts"] == 8


def test_generic_model_flops():
    g = capplan.GenericModel(name="r", params=25_557_032, forward_macs_per_sample=4.1e9)
    assert g.forward_flops_per_sample().value == pytest.approx(8.2e9)
    assert g.training_flops_per_sample().value == pytest.approx(3 * 8.2e9)


def test_parts_price_of_the_a100_epyc_build(cat):
    # Same case as tests/hardware_test.cpp: the build's own price is the source material's $20.4k-28.6k;
    # its sourced parts (A100 80GB PCIe $8,000-15,000, EPYC 7763 $7,890, 8 x DDR4 RDIMM $500-668, 990 PRO
    # 2TB $149.99, AX1600i $609.99, Exos X18 $369.99-529.99, 4U chassis $385) sum to $21,404.97-29,908.97.
    import decimal

    s = cat.find_system("build-a100-80gb-epyc-7763")
    given = cat.system_price(s)
    assert given.given and given.low.amount == decimal.Decimal("20400")
    parts = cat.parts_price(s)
    assert not parts.given and parts.known()
    assert parts.missing == []
    assert parts.low.amount == decimal.Decimal("21404.97")
    assert parts.high.amount == decimal.Decimal("29908.97")


def test_import_prices_round_trips_through_a_catalog_file():
    import pathlib
    data = pathlib.Path(__file__).resolve().parents[3] / "tests" / "cli" / "data" / "prices"
    cat = capplan.Catalog.builtin()
    offers, skipped = cat.import_prices("azure", str(data / "azure-retail-sample.json"))
    assert [o.id for o in offers] == ["azure-nd96isr-h100-v5", "azure-standard-nd96isr-h100-v5-1-year-reservation-eastus",
                                      "azure-standard-nc24ads-a100-v4-eastus"]
    assert str(offers[0].spot) == "$39.328/h" or offers[0].spot.amount == decimal.Decimal("39.328")
    # A 1-year reservation: its $500,000 over 8,760 h, held for the year.
    assert offers[1].on_demand is None and offers[1].min_term == capplan.Duration(1, "year")
    assert len(skipped) == 1 and "Standard_D2_v5" in skipped[0]
    summary = cat.load_json(capplan.write_offers_json(offers), "imported.json")
    assert summary.total_added() + summary.total_replaced() == 3
    # The refreshed offer keeps a reserved price of its 1-year term, the file's reservation's, not the older $63.40.
    refreshed = cat.find_offer("azure-nd96isr-h100-v5")
    assert refreshed.reserved == offers[1].reserved and refreshed.min_term == capplan.Duration(1, "year")
    with pytest.raises(capplan.InputError) as e:
        cat.import_prices("csv", str(data / "bad-prices.csv"))
    assert "bad-prices.csv:3" in str(e.value)
    with pytest.raises(capplan.InputError):
        cat.import_prices("gcp", str(data / "marketplace-sample.csv"))


def test_prices_are_dated_snapshots_and_a_part_without_one_says_why(cat):
    # PCPartPicker (2025-07-23): the lowest and the median priced listing of the chipset.
    p = cat.find_gpu("RTX 4090").street_price
    assert (p.amount, p.high, p.as_of) == (Money("1819.99", "USD"), Money("3089", "USD"), "2025-07-23")
    assert "docyx/pc-part-dataset" in p.source
    # Epoch AI's price data for a data-centre part; the reason where no price is public.
    assert "epoch-research" in cat.find_gpu("H200").street_price.source
    assert cat.find_gpu("gb300").street_price is None and "NVL72" in cat.find_gpu("gb300").unpriced
    assert cat.find_gpu("RTX 4090").unpriced == ""
    # A user's price overrides the reason without clearing it (ignored once a price is given).
    mine = Catalog.builtin()
    mine.load_json(json.dumps({"gpus": [{"id": "gb300", "street_price": {"amount": "60000", "currency": "USD",
                                                                        "as_of": "2026-11-01", "source": "a quote"}}]}))
    assert mine.find_gpu("gb300").street_price.amount == Money("60000", "USD")
