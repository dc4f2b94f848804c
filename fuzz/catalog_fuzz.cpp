// libFuzzer target for the catalog loader (and the model-file reader, which shares its JSON
// reader): any input must either load or throw a capplan::InputError (ParseError and
// LookupError included). Any other exception, a crash, a leak or undefined behaviour is a
// finding. Build and run with scripts/fuzz; the seed corpus is fuzz/corpus/ (valid and invalid
// catalog and model files), the dictionary fuzz/catalog.dict.
//
// Each input is given to the loaders: as a catalog file over the built-in catalog, as a model
// file, and as an image model's layer list (timed and sized when it loads); and to the three price-list importers (io/price_import.hpp). What loads must export and load back to the same text. It is also given to the text
// readers of quantities, money, counts and dates (text_readers.hpp), which every file goes through.
#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/io/catalog_json.hpp>
#include <capplan/io/image_model_json.hpp>
#include <capplan/io/model_json.hpp>
#include <capplan/memory/image_model.hpp>
#include <capplan/perf/image_model.hpp>
#include <capplan/io/price_import.hpp>

#include "text_readers.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    static const capplan::Catalog base = capplan::Catalog::make_builtin();
    capplan::Catalog c = base;
    capplan::io::apply_catalog_json(c, text, "fuzz.json");
    // A catalog that loaded exports, and its export loads into an empty catalog to the same text.
    const std::string once = capplan::io::write_catalog_json(c);
    capplan::Catalog again;
    capplan::io::apply_catalog_json(again, once, "again.json");
    if (capplan::io::write_catalog_json(again) != once) {
      std::fputs("catalog export does not round-trip\n", stderr);
      std::abort();
    }
  } catch (const capplan::InputError&) {
    // The documented outcome for a bad file.
  }
  try {
    const capplan::TransformerShape s = capplan::io::parse_model_json(text, "fuzz.json");
    const std::string once = capplan::io::write_model_json(s);
    if (capplan::io::write_model_json(capplan::io::parse_model_json(once, "again.json")) != once) {
      std::fputs("model export does not round-trip\n", stderr);
      std::abort();
    }
  } catch (const capplan::InputError&) {
  }
  // As an image model's layer list: what loads round-trips, and times and sizes to finite numbers.
  try {
    const capplan::ImageModel m = capplan::io::parse_image_model_json(text, "fuzz.json");
    const std::string once = capplan::io::image_model_to_json(m).dump();
    if (capplan::io::image_model_to_json(capplan::io::parse_image_model_json(once, "again.json")).dump() != once) {
      std::fputs("image model export does not round-trip\n", stderr);
      std::abort();
    }
    static const capplan::GpuSpec gpu = capplan::Catalog::builtin().find_gpu("h100-sxm");
    const capplan::perf::Cluster cluster = capplan::perf::make_cluster(gpu, 8, 8, capplan::perf::Link{});
    const double train = capplan::perf::estimate_image_training(m, 32, cluster).images_per_second;
    const double infer = capplan::perf::estimate_image_inference(m, 32, gpu).images_per_second;
    const double bytes = capplan::image_training_memory(m, 32).total().value();
    if (!std::isfinite(train) || !(train > 0) || !std::isfinite(infer) || !(infer > 0) || !std::isfinite(bytes)) {
      std::fputs("image model estimate is not a finite positive number\n", stderr);
      std::abort();
    }
  } catch (const capplan::InputError&) {
  }
  // The price-list importers (capplan catalog import): CSV, and the AWS and Azure JSON layouts. What
  // imports must load back as a catalog file.
  static const capplan::Catalog prices_base = capplan::Catalog::make_builtin();
  const auto load_back = [&](const capplan::io::PriceImport& r) {
    if (r.offers.empty()) return;  // copying the catalog is the slow part: only when there is something to load
    capplan::Catalog c = prices_base;
    capplan::io::apply_catalog_json(c, capplan::io::write_offers_json(r.offers), "imported.json");
  };
  try {
    load_back(capplan::io::import_price_csv(text, "fuzz.csv", prices_base));
  } catch (const capplan::InputError&) {
  }
  try {
    const capplan::io::JsonDocument doc = capplan::io::JsonDocument::parse(text, "fuzz.json");  // once for both layouts
    try {
      load_back(capplan::io::import_aws_price_list(doc, prices_base));
    } catch (const capplan::InputError&) {
    }
    try {
      load_back(capplan::io::import_azure_retail_prices(doc, prices_base));
    } catch (const capplan::InputError&) {
    }
  } catch (const capplan::InputError&) {
  }
  if (size <= 256) capplan_fuzz::text_readers(text);
  return 0;
}
