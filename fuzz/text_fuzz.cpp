// libFuzzer target for the text readers alone (text_readers.hpp): a focused run for long sessions,
// `build/fuzz/text_fuzz -max_total_time=600 build/fuzz/corpus-text fuzz/corpus-text`. catalog_fuzz
// feeds every input to the same readers, so scripts/fuzz builds only that target.
#include "text_readers.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  capplan_fuzz::text_readers(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
