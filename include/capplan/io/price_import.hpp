// Keeping prices fresh: a provider's public price list turned into dated capplan cloud offers (a
// capplan-catalog file with a "cloud_offers" section), what `capplan catalog import FORMAT FILE`
// prints. Three formats:
//
//   aws    the AWS EC2 price list file ("offer file": products with their attributes, terms.OnDemand
//          with priceDimensions per hour), as https://pricing.us-east-1.amazonaws.com/offers/v1.0/
//          aws/AmazonEC2/current/<region>/index.json serves it; Linux, shared tenancy, no
//          pre-installed software, capacity status "Used" (the plain on-demand price);
//   azure  the Azure Retail Prices API JSON (https://prices.azure.com/api/retail/prices?$filter=...,
//          "Items" with armSkuName, retailPrice, unitOfMeasure "1 Hour"): Linux virtual machines,
//          on-demand ("Consumption") and Spot prices in one offer per size and region; each
//          reservation term ("type": "Reservation", "reservationTerm": "1 Year", "3 Years", "5 Years") an offer of
//          its own whose retailPrice is the whole term's price (the API's reservation sample: E64 v4,
//          "1 Year", 25007.0, with unitOfMeasure "1 Hour"), recorded as a reserved price per
//          instance-hour (the total over the term's 8,760 h a year, rounded at Decimal's 12th place)
//          with min_term the term (a refreshed catalog offer with a reserved price takes the reservation
//          of its term too); Windows and Low Priority left out;
//   csv    one offer per line for everything else (marketplace snapshots, a quote a buyer received):
//          id,provider,instance_type,gpu_id,gpu_count,currency,on_demand,spot,reserved,monthly,as_of,source
//          and optionally region,vcpus,ram,note,min_term,max_gpus; RFC 4180 quoting; prices as decimal text (per
//          instance-hour; monthly per instance-month), empty where none.
//
//   const io::PriceImport r = io::import_prices(io::PriceFormat::aws, io::JsonDocument::read_text_file(path), path,
//                                               Catalog::builtin());
//   std::cout << io::write_offers_json(r.offers);   // a catalog file: capplan --catalog it.json ...
//
// A provider's instance names say which GPU they hold only by family (AWS p5 = H100 SXM, Azure
// ND96isr_H100_v5 = 8 x H100 SXM): the tables below map the families capplan knows; a product of
// another family is skipped and listed in `skipped` with the reason, never guessed. Every offer is
// validated as a catalog entry (its GPU must be in the catalog given) and errors name the file and
// the line (CSV) or the JSON position and field.
#pragma once

#include "capplan/date.hpp"
#include "capplan/error.hpp"
#include "capplan/hardware/catalog.hpp"
#include "capplan/hardware/cloud.hpp"
#include "capplan/io/catalog_json.hpp"
#include "capplan/io/json_document.hpp"
#include "capplan/io/record_json.hpp"
#include "capplan/money/currency.hpp"
#include "capplan/money/decimal.hpp"
#include "capplan/money/money.hpp"
#include "capplan/units/format.hpp"
#include "capplan/units/parse.hpp"

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan::io {

enum class PriceFormat { aws, azure, csv };
BOOST_DESCRIBE_ENUM(PriceFormat, aws, azure, csv)

struct PriceImport {
  std::vector<CloudOffer> offers;    // validated, ids unique, in the order the file gives them
  // What was left out, one line each: a product ("c5.large (us-east-1): no GPU"), or a catalog offer's
  // price the refresh does not carry (an on-demand, Spot or monthly price the file does not give, a
  // reserved price without a reservation of its term; from an AWS offer file, on-demand prices only).
  std::vector<std::string> skipped;
};

// One provider family: a name prefix and the GPU its instances hold.
struct GpuFamily {
  std::string_view prefix;
  std::string_view gpu_id;
};

// AWS instance families with GPUs capplan's catalog holds (AWS EC2 accelerated computing instance
// types page): the family is the instance type before the dot.
inline constexpr GpuFamily aws_gpu_families[] = {
    {"p6e-gb200", "gb200"}, {"p6-b200", "b200"}, {"p5en", "h200-sxm"}, {"p5e", "h200-sxm"}, {"p5", "h100-sxm"},
    {"p4de", "a100-sxm-80gb"}, {"p4d", "a100-sxm-40gb"}, {"p3dn", "v100-sxm2-32gb"}, {"p3", "v100-sxm2-16gb"},
    {"g6e", "l40s"}, {"g6", "l4"}, {"g5", "a10g"}, {"g4dn", "t4"},
};

// Azure virtual machine sizes (armSkuName without "Standard_") with GPUs capplan's catalog holds,
// and their GPU counts (Azure's ND and NC series size tables).
struct AzureSize {
  std::string_view sku;
  std::string_view gpu_id;
  int gpus;
};
inline constexpr AzureSize azure_gpu_sizes[] = {
    {"ND96isr_H200_v5", "h200-sxm", 8}, {"ND96isr_H100_v5", "h100-sxm", 8}, {"ND96isr_MI300X_v5", "mi300x", 8},
    {"ND96amsr_A100_v4", "a100-sxm-80gb", 8}, {"ND96asr_v4", "a100-sxm-40gb", 8},
    {"NC40ads_H100_v5", "h100-nvl", 1}, {"NC80adis_H100_v5", "h100-nvl", 2},
    {"NC24ads_A100_v4", "a100-pcie-80gb", 1}, {"NC48ads_A100_v4", "a100-pcie-80gb", 2}, {"NC96ads_A100_v4", "a100-pcie-80gb", 4},
    {"NC4as_T4_v3", "t4", 1}, {"NC8as_T4_v3", "t4", 1}, {"NC16as_T4_v3", "t4", 1}, {"NC64as_T4_v3", "t4", 4},
    {"NV36ads_A10_v5", "a10", 1}, {"NV72ads_A10_v5", "a10", 2},
};

}  // namespace capplan::io

namespace capplan::detail {

// An offer id from provider text: lower case, '_' and ' ' to '-'.
inline std::string offer_id(std::string_view provider, std::string_view instance, std::string_view region) {
  std::string id = lower_ascii(provider) + "-" + lower_ascii(instance) + (region.empty() ? "" : "-" + lower_ascii(region));
  for (char& c : id) {
    if (c == '_' || c == ' ') c = '-';
  }
  return id;
}

// Lower-case letters and digits only: "Standard_ND96asr_v4 (ND A100 v4)" -> "standardnd96asrv4nda100v4".
inline std::string alnum_lower(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += lower_ascii(std::string_view(&c, 1));
  }
  return out;
}

// Names an imported offer. The catalog's own offer for the same provider, instance and region keeps
// its id and instance name, so loading the file refreshes that offer's prices; any other offer is
// "<provider>-<instance>-<region>" named "<instance> (<region>)" (an instance name is a lookup name
// and must stay unique across regions).
// The instance name without a trailing " (...)" ("Standard_ND96isr_H100_v5 (ND H100 v5)" is
// "Standard_ND96isr_H100_v5"): what two offers of the same instance share.
inline std::string_view instance_base(std::string_view name) {
  const std::size_t open = name.rfind(" (");
  return open != std::string_view::npos && !name.empty() && name.back() == ')' ? name.substr(0, open) : name;
}

inline void name_imported_offer(CloudOffer& o, const Catalog& cat, bool termed = false) {
  const std::string want = alnum_lower(o.instance_type);
  const auto take = [&](const CloudOffer& e) {
    o.id = e.id;
    o.instance_type = e.instance_type;
    o.region = e.region;  // the catalog's spelling ("eastus" for a file's "EastUS")
    // A price feed says nothing of the network between instances: the catalog's record stays.
    if (!(o.network.value() > 0)) {
      o.network = e.network;
      o.network_kind = e.network_kind;
    }
  };
  // The same provider and region, letters and digits compared without case: a file's "EastUS" is the
  // catalog's "eastus" (Azure's region names are case-insensitive), and the same kind of offer
  // (reserved only, or with an hourly price), so that an hourly price never takes the id of a
  // reservation or Capacity Block sold under the same instance name (aws-p5e.48xlarge, Capacity Blocks
  // only, is not refreshed by an on-demand p5e.48xlarge price, which would drop its reserved price),
  // nor the reverse.
  const auto same_provider_region = [&](const CloudOffer& e) {
    return alnum_lower(e.provider) == alnum_lower(o.provider) && alnum_lower(e.region) == alnum_lower(o.region) &&
           e.region.empty() == o.region.empty() && !want.empty();
  };
  const auto same_place = [&](const CloudOffer& e) {
    const bool reserved_only = e.reserved && !e.on_demand && !e.spot;  // a reservation or a Capacity Block of its own
    return same_provider_region(e) && reserved_only == termed;
  };
  // The same instance: its full name first; else equal names once a trailing " (...)" is set aside
  // ("Standard_ND96isr_H100_v5 (ND H100 v5)"), so that a size's reservation offer ("... 1-year
  // reservation (eastus)") or a Capacity Block ("p5.48xlarge (Capacity Block)") is never taken for the
  // size itself, nor the reverse.
  for (const CloudOffer& e : cat.cloud_offers()) {
    if (same_place(e) && alnum_lower(e.instance_type) == want) return take(e);
  }
  for (const CloudOffer& e : cat.cloud_offers()) {
    if (same_place(e) && alnum_lower(instance_base(e.instance_type)) == want) return take(e);
  }
  // An offer of the other kind for the same instance there (aws-p5e.48xlarge, sold as Capacity Blocks,
  // for an on-demand p5e.48xlarge price) is the same machine: its recorded vCPUs, memory and network
  // carry over, its id and prices do not.
  const auto other_kind = [&](const CloudOffer& e) {
    return same_provider_region(e) && (alnum_lower(e.instance_type) == want || alnum_lower(instance_base(e.instance_type)) == want);
  };
  for (const CloudOffer& e : cat.cloud_offers()) {
    if (!other_kind(e)) continue;
    if (o.vcpus == 0) o.vcpus = e.vcpus;
    if (!(o.ram.value() > 0)) o.ram = e.ram;
    if (!(o.network.value() > 0)) {
      o.network = e.network;
      o.network_kind = e.network_kind;
    }
    break;
  }
  o.id = offer_id(o.provider, o.instance_type, o.region);
  if (!o.region.empty()) o.instance_type += " (" + o.region + ")";
  // A new offer never takes the id or the instance name of a catalog offer it did not match (one of
  // the other kind named "<provider>-<instance>-<region>"): loading the file would replace that offer.
  const auto taken = [&](auto field, const std::string& v) {
    return std::any_of(cat.cloud_offers().begin(), cat.cloud_offers().end(), [&](const CloudOffer& e) { return alnum_lower(e.*field) == alnum_lower(v); });
  };
  const std::string kind = termed ? "reserved" : "hourly";
  while (taken(&CloudOffer::id, o.id)) o.id += "-" + kind;
  while (taken(&CloudOffer::instance_type, o.instance_type)) o.instance_type += " " + kind;
}

// Every offer of an import has its own id: two that would share one are an error naming it.
inline void check_unique_ids(const std::vector<CloudOffer>& offers, const std::string& file) {
  std::map<std::string, int> ids;
  for (const CloudOffer& o : offers) {
    if (++ids[o.id] > 1) capplan::detail::fail("id", quote_text(o.id), file + ": two offers of the import would share this id");
  }
}

// Rethrows a capplan error with `where: ` in front of its message, keeping its type, field and value.
[[noreturn]] inline void rethrow_at(const InputError& e, const std::string& where) {
  const std::string what = e.what();
  const std::string msg = what.rfind(where, 0) == 0 ? what : where + ": " + what;
  if (dynamic_cast<const ParseError*>(&e)) throw ParseError(e.field(), e.value(), msg);
  if (dynamic_cast<const LookupError*>(&e)) throw LookupError(e.field(), e.value(), msg);
  if (dynamic_cast<const CurrencyError*>(&e)) throw CurrencyError(e.field(), e.value(), msg);
  throw InputError(e.field(), e.value(), msg);
}

inline std::string date_part(std::string_view timestamp) { return std::string(timestamp.substr(0, std::min<std::size_t>(10, timestamp.size()))); }

// The offer validated as a catalog entry, its GPU looked up in `cat`; errors rethrown by `fail`.
template <class Fail>
void check_offer(const CloudOffer& o, const Catalog& cat, Fail&& fail) {
  try {
    o.validate();
    (void)cat.find_gpu(o.gpu_id);
  } catch (const InputError& e) {
    fail(e);
  }
}

}  // namespace capplan::detail

namespace capplan::io {

// The AWS EC2 price list (offer file).
inline PriceImport import_aws_price_list(const JsonDocument& doc, const Catalog& cat) {
  PriceImport out;
  const Json& root = doc.root();
  ObjectReader top(doc, root, "", "price list");
  const std::string published = top.string_opt("publicationDate").value_or("");
  const Json* products = top.find("products");
  const Json* terms_all = top.find("terms");
  if (!products) top.missing("products", "an object of products by SKU");
  if (!products->is_object()) top.type_error("products", *products, "an object of products by SKU");
  const Json* on_demand_terms = nullptr;
  if (terms_all && terms_all->is_object() && terms_all->contains("OnDemand")) on_demand_terms = &(*terms_all)["OnDemand"];
  for (const auto& [sku, product] : products->items()) {
    const std::string pointer = "/products/" + capplan::detail::pointer_token(sku);
    ObjectReader p(doc, product, pointer, "product " + capplan::detail::quote_text(sku));
    const Json* attrs_json = p.find("attributes");
    if (!attrs_json) continue;  // not an instance (the file also lists other products)
    ObjectReader a(doc, *attrs_json, pointer + "/attributes", "product " + capplan::detail::quote_text(sku), "attributes.");
    const std::string instance = a.string_opt("instanceType").value_or("");
    if (instance.empty()) continue;
    const std::string region = a.string_opt("regionCode").value_or(a.string_opt("location").value_or(""));
    const std::string label = instance + (region.empty() ? "" : " (" + region + ")");
    const auto attr_is = [&](std::string_view key, std::string_view want) {
      const auto v = a.string_opt(key);
      return !v || *v == want;
    };
    if (!attr_is("operatingSystem", "Linux") || !attr_is("tenancy", "Shared") || !attr_is("preInstalledSw", "NA") ||
        !attr_is("capacitystatus", "Used")) {
      continue;  // the same instance under Windows, dedicated tenancy, SQL Server ...: not the plain price
    }
    const std::string family = instance.substr(0, instance.find('.'));
    const GpuFamily* fam = nullptr;
    for (const GpuFamily& f : aws_gpu_families) {
      if (family == f.prefix) fam = &f;
    }
    if (!fam) {
      out.skipped.push_back(label + ": no GPU family capplan knows (" + family + ")");
      continue;
    }
    const std::string gpus_text = a.string_opt("gpu").value_or("");
    int gpus = 0;
    for (char c : gpus_text) {
      if (c < '0' || c > '9' || gpus > 100000) {
        gpus = -1;
        break;
      }
      gpus = gpus * 10 + (c - '0');
    }
    if (gpus <= 0) a.fail("gpu", capplan::detail::quote_text(gpus_text), "is not a GPU count");
    // terms.OnDemand[sku] -> {offerTermCode: {effectiveDate, priceDimensions: {rateCode: {unit, pricePerUnit: {USD}}}}}
    if (!on_demand_terms || !on_demand_terms->is_object() || !on_demand_terms->contains(sku)) {
      out.skipped.push_back(label + ": no on-demand price in the file");
      continue;
    }
    const std::string term_pointer = "/terms/OnDemand/" + capplan::detail::pointer_token(sku);
    const Json& terms = (*on_demand_terms)[sku];
    if (!terms.is_object() || terms.empty()) {
      out.skipped.push_back(label + ": no on-demand price in the file");
      continue;
    }
    const auto first_term = terms.begin();
    const std::string term_code = first_term.key();
    const Json& term = first_term.value();
    const std::string tp = term_pointer + "/" + capplan::detail::pointer_token(term_code);
    ObjectReader t(doc, term, tp, "product " + capplan::detail::quote_text(sku), "terms.");
    const std::string effective = capplan::detail::date_part(t.string_opt("effectiveDate").value_or(published));
    const Json* dims = t.find("priceDimensions");
    if (!dims || !dims->is_object() || dims->empty()) t.missing("priceDimensions", "the hourly price");
    const auto first_dim = dims->begin();
    const std::string rate_code = first_dim.key();
    const Json& dim = first_dim.value();
    ObjectReader d(doc, dim, tp + "/priceDimensions/" + capplan::detail::pointer_token(rate_code), "product " + capplan::detail::quote_text(sku),
                   "priceDimensions.");
    const std::string unit = d.string("unit");
    if (unit != "Hrs") d.fail("unit", capplan::detail::quote_text(unit), "is not \"Hrs\": only hourly prices are imported");
    const Json* ppu = d.find("pricePerUnit");
    if (!ppu) d.missing("pricePerUnit", "{\"USD\": \"...\"}");
    ObjectReader pp(doc, *ppu, d.key_pointer("pricePerUnit"), d.entry(), "priceDimensions.pricePerUnit.");
    const std::string usd = pp.string("USD");
    CloudOffer o;
    o.provider = "AWS";
    o.instance_type = instance;
    o.region = region;
    capplan::detail::name_imported_offer(o, cat);
    o.gpu_count = gpus;
    o.gpu_id = std::string(fam->gpu_id);
    o.currency = Currency::USD;
    try {
      o.on_demand = MoneyRate(Decimal::parse(usd, "USD"), Currency::USD);
    } catch (const InputError& e) {
      pp.rethrow(e, "USD");
    }
    if (o.on_demand->is_zero()) {
      out.skipped.push_back(label + ": an on-demand price of 0 (not offered)");
      continue;
    }
    o.as_of = effective.empty() ? capplan::detail::date_part(published) : effective;
    o.source = "AWS EC2 price list (offer file)" + (published.empty() ? std::string() : ", published " + published) + ", SKU " + sku;
    o.note = "imported by capplan catalog import aws";
    capplan::detail::check_offer(o, cat, [&](const InputError& e) { p.rethrow(e); });
    // The offer file holds on-demand prices only: a refreshed catalog offer's Spot, reserved (a Capacity
    // Block's) or monthly price is not carried under the new date (loading the file removes it), and said.
    for (const CloudOffer& e : cat.cloud_offers()) {
      if (e.id != o.id) continue;
      const auto without = [&](const std::string& what) {
        out.skipped.push_back(o.id + ": imported without the catalog's " + what + ": the AWS offer file holds on-demand prices only");
      };
      if (e.spot) without("Spot price");
      if (e.reserved) without("reserved price");
      if (e.monthly) without("monthly price");
    }
    out.offers.push_back(std::move(o));
  }
  capplan::detail::check_unique_ids(out.offers, doc.file());
  return out;
}

// The Azure Retail Prices API JSON ({"Items": [...]}, one page or the pages' items concatenated).
inline PriceImport import_azure_retail_prices(const JsonDocument& doc, const Catalog& cat) {
  PriceImport out;
  ObjectReader top(doc, doc.root(), "", "retail prices");
  const Json* items = top.find("Items");
  if (!items) top.missing("Items", "the array of price items");
  if (!items->is_array()) top.type_error("Items", *items, "an array of price items");
  std::map<std::string, std::size_t> index;  // size@region -> position in out.offers (Spot joins its size's offer)
  std::vector<std::pair<std::size_t, std::string>> hourly;  // (position, size@region) of each on-demand/Spot offer
  for (std::size_t i = 0; i < items->size(); ++i) {
    const std::string pointer = "/Items/" + std::to_string(i);
    ObjectReader r(doc, (*items)[i], pointer, "Items[" + std::to_string(i) + "]");
    if (r.string_opt("serviceName").value_or("Virtual Machines") != "Virtual Machines") continue;
    const std::string arm = r.string("armSkuName");
    const std::string sku_name = r.string_opt("skuName").value_or("");
    const std::string product = r.string_opt("productName").value_or("");
    const std::string type = r.string_opt("type").value_or("Consumption");
    const std::string region = r.string_opt("armRegionName").value_or("");
    const std::string label = arm + (region.empty() ? "" : " (" + region + ")");
    // A reservation: its term, whose whole price retailPrice is.
    std::optional<int> term_years;
    if (type == "Reservation") {
      const std::string term = r.string_opt("reservationTerm").value_or("");
      for (int y : {1, 3, 5}) {
        if (term == std::to_string(y) + (y == 1 ? " Year" : " Years")) term_years = y;
      }
      if (!term_years) {
        out.skipped.push_back(label + ": a reservation of term " + capplan::detail::quote_text(term) + " (1, 3 or 5 years are read)");
        continue;
      }
    } else if (type != "Consumption") {
      continue;  // DevTestConsumption and the like: not a price a buyer pays
    }
    if (product.find("Windows") != std::string::npos) continue;
    if (sku_name.find("Low Priority") != std::string::npos) continue;
    const bool spot = sku_name.find("Spot") != std::string::npos;
    const std::string size = arm.rfind("Standard_", 0) == 0 ? arm.substr(9) : arm;
    const AzureSize* known = nullptr;
    for (const AzureSize& s : azure_gpu_sizes) {
      if (size == s.sku) known = &s;
    }
    if (!known) {
      out.skipped.push_back(label + ": no GPU size capplan knows");
      continue;
    }
    const std::string unit = r.string_opt("unitOfMeasure").value_or("1 Hour");
    if (!term_years && unit != "1 Hour")
      r.fail("unitOfMeasure", capplan::detail::quote_text(unit), "is not \"1 Hour\": only hourly prices are imported");
    const std::string currency_code = r.string_opt("currencyCode").value_or("USD");
    const Json* price = r.find("retailPrice");
    if (!price) r.missing("retailPrice", "the price per hour");
    if (!price->is_number()) r.type_error("retailPrice", *price, "a number");
    std::optional<MoneyRate> rate;
    try {
      const Currency cur = parse_currency(currency_code, "currencyCode");
      // The API writes prices as JSON numbers; read to 12 significant digits (its prices have at most 8).
      rate = MoneyRate(Decimal::from_double(price->get<double>(), 12, "retailPrice"), cur);
    } catch (const InputError& e) {
      r.rethrow(e, "retailPrice");
    }
    if (rate->is_zero()) {
      out.skipped.push_back(label + ": a price of 0");
      continue;
    }
    if (term_years) {
      // The term's price spread over its hours: a reserved price per instance-hour, held for the term.
      const Duration term = Duration::from_value(*term_years * scale::year);
      const std::string total = rate->amount().to_string() + " " + std::string(code(rate->currency()));
      rate = MoneyRate(rate->amount() / Decimal(static_cast<long long>(*term_years) * 8760), rate->currency());
      CloudOffer o;
      o.provider = "Azure";
      o.instance_type = arm + " " + std::to_string(*term_years) + "-year reservation";
      o.region = region;
      capplan::detail::name_imported_offer(o, cat, /*termed=*/true);
      o.gpu_count = known->gpus;
      o.gpu_id = std::string(known->gpu_id);
      o.currency = rate->currency();
      o.reserved = *rate;
      o.min_term = term;
      o.as_of = capplan::detail::date_part(r.string_opt("effectiveStartDate").value_or(""));
      o.source = "Azure Retail Prices API, " + (product.empty() ? arm : product) + ", reservation of " + std::to_string(*term_years) +
                 (*term_years == 1 ? " year" : " years");
      o.note = "imported by capplan catalog import azure: the term's price, " + total + ", over its " + std::to_string(*term_years * 8760) + " h";
      const std::string key = size + "@" + capplan::detail::alnum_lower(region) + "@" + std::to_string(*term_years) + "y";
      if (index.count(key))
        r.fail("reservationTerm", capplan::detail::quote_text(r.string_opt("reservationTerm").value_or("")), "appears twice for " + label);
      index.emplace(key, out.offers.size());
      out.offers.push_back(std::move(o));
      continue;
    }
    const std::string key = size + "@" + capplan::detail::alnum_lower(region);
    auto it = index.find(key);
    if (it == index.end()) {
      CloudOffer o;
      o.provider = "Azure";
      o.instance_type = arm;
      o.region = region;
      capplan::detail::name_imported_offer(o, cat);
      o.gpu_count = known->gpus;
      o.gpu_id = std::string(known->gpu_id);
      o.currency = rate->currency();
      o.as_of = capplan::detail::date_part(r.string_opt("effectiveStartDate").value_or(""));
      o.source = "Azure Retail Prices API, " + (product.empty() ? arm : product);
      o.note = "imported by capplan catalog import azure";
      it = index.emplace(key, out.offers.size()).first;
      hourly.emplace_back(out.offers.size(), key);
      out.offers.push_back(std::move(o));
    }
    CloudOffer& o = out.offers[it->second];
    if (rate->currency() != o.currency) r.fail("currencyCode", currency_code, "differs from the same size's other prices");
    (spot ? o.spot : o.on_demand) = *rate;
    const std::string date = capplan::detail::date_part(r.string_opt("effectiveStartDate").value_or(""));
    if (o.as_of.empty() || (!date.empty() && date > o.as_of)) o.as_of = date;  // the latest of its prices
  }
  // A refreshed catalog offer that holds a reserved price (its size's reservation of min_term's years,
  // as azure-nd96isr-h100-v5's 1-year $63.40) takes the import's reservation of that term for the same
  // size, region and currency, so that loading the file keeps a reserved price, at the import's figure
  // (the offer dated by its latest price); without one, `skipped` says the refreshed offer comes without
  // the catalog's reserved price, as it says of an on-demand or Spot price the file does not give. The
  // reservation stays an offer of its own too.
  for (const auto& [pos, key] : hourly) {
    CloudOffer& o = out.offers[pos];
    const CloudOffer* e = nullptr;
    for (const CloudOffer& c : cat.cloud_offers())
      if (c.id == o.id) e = &c;
    if (!e) continue;
    const std::string size_region = key.substr(0, key.find('@')) + (o.region.empty() ? std::string() : " in " + o.region);
    // An hourly price the catalog has and the file does not give is removed with the refresh (not kept
    // under the new date), and said.
    if (e->on_demand && !o.on_demand) out.skipped.push_back(o.id + ": imported without the catalog's on-demand price: no on-demand item for " + size_region + " in this file");
    if (e->spot && !o.spot) out.skipped.push_back(o.id + ": imported without the catalog's Spot price: no Spot item for " + size_region + " in this file");
    if (e->monthly) out.skipped.push_back(o.id + ": imported without the catalog's monthly price: the Retail Prices API gives none");
    if (!e->reserved) continue;
    const auto without = [&](const std::string& term, const std::string& why) {
      out.skipped.push_back(o.id + ": imported without the catalog's " + term + "reserved price: " + why);
    };
    if (!e->min_term) {
      without("", "the catalog gives it no term to match a reservation of this file by");
      continue;
    }
    const double years = e->min_term->value() / scale::year;
    const int y = static_cast<int>(std::lround(years));
    const bool whole = y >= 1 && std::abs(years - y) < 1e-9;
    const std::string term = whole ? std::to_string(y) + "-year " : format(*e->min_term, {.significant = 4}) + " ";
    const auto r = whole ? index.find(key + "@" + std::to_string(y) + "y") : index.end();
    if (r == index.end()) {
      without(term, whole ? "no " + std::to_string(y) + "-year reservation for " + size_region + " in this file"
                          : "Azure sells reservations of 1, 3 or 5 years only");
      continue;
    }
    const CloudOffer& res = out.offers[r->second];
    if (res.currency != o.currency) {
      without(term, "this file's " + std::to_string(y) + "-year reservation for " + size_region + " is in " + std::string(code(res.currency)) +
                        ", its hourly prices in " + std::string(code(o.currency)));
      continue;
    }
    o.reserved = res.reserved;
    o.min_term = res.min_term;
    if (!res.as_of.empty() && res.as_of > o.as_of) o.as_of = res.as_of;
  }
  for (const CloudOffer& o : out.offers) {
    capplan::detail::check_offer(o, cat, [&](const InputError& e) { capplan::detail::rethrow_at(e, doc.file() + ": " + o.id); });
  }
  capplan::detail::check_unique_ids(out.offers, doc.file());
  return out;
}

}  // namespace capplan::io

namespace capplan::detail {

// RFC 4180 records of `text`: fields split at commas, "..." quoting with "" for a quote, CRLF or LF
// line ends; each record with the 1-based line it starts on.
struct CsvRecord {
  std::size_t line = 1;
  std::vector<std::string> fields;
};

// The byte offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, at most U+10FFFF), or npos.
inline std::size_t invalid_utf8_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned min = 0;
    unsigned cp = 0;
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC2 && b <= 0xDF) {
      n = 1, min = 0x80, cp = b & 0x1Fu;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 2, min = 0x800, cp = b & 0x0Fu;
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 3, min = 0x10000, cp = b & 0x07u;
    } else {
      return i;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return i;
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0u) != 0x80u) return i;
      cp = (cp << 6) | (c & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n + 1;
  }
  return std::string_view::npos;
}

inline std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& file) {
  if (const std::size_t bad = invalid_utf8_at(text); bad != std::string_view::npos) {
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
    throw ParseError("csv", "byte " + std::to_string(bad), file + ":" + std::to_string(line) + ": bad CSV: not UTF-8 text (byte " +
                                                               std::to_string(bad) + ")");
  }
  std::vector<CsvRecord> out;
  CsvRecord rec;
  std::string field;
  std::size_t line = 1;
  bool quoted = false, was_quoted = false;
  rec.line = 1;
  const auto end_field = [&] {
    rec.fields.push_back(std::move(field));
    field.clear();
    was_quoted = false;
  };
  const auto end_record = [&] {
    end_field();
    if (!(rec.fields.size() == 1 && rec.fields[0].empty())) out.push_back(std::move(rec));  // blank lines are skipped
    rec = CsvRecord{};
    rec.line = line;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0') throw ParseError("csv", "NUL", file + ":" + std::to_string(line) + ": bad CSV: a NUL byte");
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"') {
      if (!field.empty() || was_quoted)
        throw ParseError("csv", field, file + ":" + std::to_string(line) + ": bad CSV: a quote inside an unquoted field");
      quoted = was_quoted = true;
    } else if (c == ',') {
      end_field();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      // CRLF: the \n ends the record
    } else if (c == '\n') {
      ++line;
      end_record();
    } else {
      if (was_quoted) throw ParseError("csv", field, file + ":" + std::to_string(line) + ": bad CSV: text after a closing quote");
      field += c;
    }
  }
  if (quoted) throw ParseError("csv", "\"", file + ":" + std::to_string(rec.line) + ": bad CSV: a quoted field is not closed");
  if (!field.empty() || !rec.fields.empty()) end_record();
  return out;
}

}  // namespace capplan::detail

namespace capplan::io {

// The simple CSV: a header line naming the columns (any order), then one offer per line.
inline PriceImport import_price_csv(std::string_view text, const std::string& file, const Catalog& cat) {
  static constexpr std::string_view required[] = {"id", "provider", "instance_type", "gpu_id", "gpu_count", "currency",
                                                  "on_demand", "spot", "reserved", "monthly", "as_of", "source"};
  static constexpr std::string_view optional_cols[] = {"region", "vcpus", "ram", "note", "min_term", "max_gpus"};
  const std::vector<capplan::detail::CsvRecord> rows = capplan::detail::parse_csv(text, file);
  if (rows.empty()) throw InputError("csv", "", file + ": is empty; expected a header line: id,provider,instance_type,gpu_id,...");
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < rows[0].fields.size(); ++i) {
    const std::string& name = rows[0].fields[i];
    const bool known = std::find(std::begin(required), std::end(required), name) != std::end(required) ||
                       std::find(std::begin(optional_cols), std::end(optional_cols), name) != std::end(optional_cols);
    if (!known) throw InputError(name, name, file + ":1: column \"" + name + "\" is not a column of the price CSV (docs/catalog-files.md)");
    if (!col.emplace(name, i).second) throw InputError(name, name, file + ":1: column \"" + name + "\" appears twice");
  }
  for (std::string_view r : required) {
    if (!col.count(std::string(r))) throw InputError(std::string(r), "", file + ":1: the header has no column \"" + std::string(r) + "\"");
  }
  PriceImport out;
  std::map<std::string, std::size_t> seen;
  for (std::size_t n = 1; n < rows.size(); ++n) {
    const capplan::detail::CsvRecord& row = rows[n];
    const std::string where = file + ":" + std::to_string(row.line);
    if (row.fields.size() != rows[0].fields.size()) {
      throw InputError("csv", std::to_string(row.fields.size()) + " fields",
                       where + ": has " + std::to_string(row.fields.size()) + " fields; the header has " + std::to_string(rows[0].fields.size()));
    }
    const auto get = [&](std::string_view name) -> std::string {
      auto it = col.find(std::string(name));
      return it == col.end() ? std::string() : row.fields[it->second];
    };
    const auto fail = [&](std::string_view name, const std::string& value, std::string_view problem) {
      throw InputError(std::string(name), value, where + ": " + std::string(name) + ": \"" + value + "\" " + std::string(problem));
    };
    CloudOffer o;
    o.id = get("id");
    o.provider = get("provider");
    o.instance_type = get("instance_type");
    o.gpu_id = get("gpu_id");
    o.region = get("region");
    o.as_of = get("as_of");
    o.source = get("source");
    o.note = get("note");
    try {
      const auto whole = [&](std::string_view name, std::int64_t lo, std::int64_t hi) -> int {
        const std::string v = get(name);
        std::int64_t x = 0;
        if (v.empty() || v.size() > 9 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) {
          fail(name, v, "is not a whole number");
        }
        for (char c : v) x = x * 10 + (c - '0');
        if (x < lo || x > hi) fail(name, v, "is outside " + std::to_string(lo) + ".." + std::to_string(hi));
        return static_cast<int>(x);
      };
      o.gpu_count = whole("gpu_count", 1, 1024);
      if (!get("vcpus").empty()) o.vcpus = whole("vcpus", 0, 10000);
      if (!get("max_gpus").empty()) o.max_gpus = whole("max_gpus", 0, 1024);  // sold by the GPU: up to this many of a host
      if (!get("ram").empty()) o.ram = parse<DataSize>(get("ram"), "ram");
      if (!get("min_term").empty()) o.min_term = parse<Duration>(get("min_term"), "min_term");
      o.currency = parse_currency(get("currency"), "currency");
      const auto rate = [&](std::string_view name) -> std::optional<MoneyRate> {
        const std::string v = get(name);
        if (v.empty()) return std::nullopt;
        return MoneyRate(Decimal::parse(v, name), o.currency);
      };
      o.on_demand = rate("on_demand");
      o.spot = rate("spot");
      o.reserved = rate("reserved");
      if (!get("monthly").empty()) o.monthly = Money(Decimal::parse(get("monthly"), "monthly"), o.currency);
      if (auto [it, fresh] = seen.emplace(o.id, row.line); !fresh) {
        fail("id", o.id, "is a duplicate id: line " + std::to_string(it->second) + " has the same id");
      }
      o.validate();
      (void)cat.find_gpu(o.gpu_id);
    } catch (const InputError& e) {
      capplan::detail::rethrow_at(e, where);
    }
    out.offers.push_back(std::move(o));
  }
  return out;
}

// Any of the three formats, from the file's text (JsonDocument::read_text_file applies the limits).
inline PriceImport import_prices(PriceFormat f, std::string text, const std::string& file, const Catalog& cat) {
  switch (f) {
    case PriceFormat::aws: return import_aws_price_list(JsonDocument::parse(std::move(text), file), cat);
    case PriceFormat::azure: return import_azure_retail_prices(JsonDocument::parse(std::move(text), file), cat);
    case PriceFormat::csv: return import_price_csv(text, file, cat);
  }
  return {};
}

// The offers as a capplan-catalog file: {"format", "version", "cloud_offers": [...]}, every price
// kind present (null where the list gives none).
inline std::string write_offers_json(const std::vector<CloudOffer>& offers, int indent = 2) {
  Json j = Json::object();
  j["format"] = std::string(catalog_format);
  j["version"] = catalog_format_version;
  Json a = Json::array();
  for (const CloudOffer& o : offers) {
    Json e = record_to_json(o);
    // A price kind the list does not give is null ("remove"): loading the file over an offer it
    // refreshes must not keep that offer's older price of that kind (or its term) under the new date.
    for (const char* kind : {"on_demand", "spot", "reserved", "monthly", "min_term"}) {
      if (!e.contains(kind)) e[kind] = nullptr;
    }
    a.push_back(std::move(e));
  }
  j["cloud_offers"] = std::move(a);
  return j.dump(indent) + "\n";
}

}  // namespace capplan::io
