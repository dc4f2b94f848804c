// A consumer of capplan::io: a one-GPU catalog file read from text, priced exactly.
#include <capplan/hardware/builtin_catalog.hpp>
#include <capplan/hardware/catalog.hpp>
#include <capplan/io/catalog_json.hpp>

#include <iostream>

int main() {
  capplan::Catalog catalog = capplan::Catalog::builtin();
  capplan::io::apply_catalog_json(catalog, R"({"format": "capplan-catalog", "version": 1, "gpus": [
    {"id": "h100-sxm", "street_price": {"amount": "25000.50", "currency": "USD", "as_of": "2026-11-01",
     "source": "consumer test"}}]})");
  const capplan::GpuSpec& gpu = catalog.find_gpu("h100-sxm");
  if (!gpu.street_price) return 1;
  std::cout << "io: " << gpu.street_price->amount.amount().to_string(2) << "\n";
  return 0;
}
