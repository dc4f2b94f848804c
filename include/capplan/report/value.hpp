// Value: a result in the form programs read it, built once by the library and written by each
// front end without re-deciding anything: the command line prints it as JSON (nlohmann-json), the
// Python package turns it into dicts and lists (money as decimal.Decimal).
//
//   Value v = Value::Object{};
//   v["model"] = "llama2-7b";  v["gpus"] = 8;  v["time_s"] = 3600.5;  v["cost_usd"] = Value::Exact{"12.34"};
//
// Integers and floating-point numbers are kept apart (JSON prints 8, not 8.0); money is an exact
// decimal string (Exact), never a double; an object keeps its keys in insertion order.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace capplan {

class Value {
 public:
  struct Exact {  // an exact decimal (money), written as a string
    std::string decimal;
  };
  using Array = std::vector<Value>;
  using Object = std::vector<std::pair<std::string, Value>>;
  using Data = std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Exact, Array, Object>;

  Value() : data_(nullptr) {}
  Value(std::nullptr_t) : data_(nullptr) {}
  Value(bool b) : data_(b) {}
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  Value(I i) : data_(static_cast<std::int64_t>(i)) {}
  template <std::floating_point F>
  Value(F f) : data_(static_cast<double>(f)) {}
  Value(std::string s) : data_(std::move(s)) {}
  Value(std::string_view s) : data_(std::string(s)) {}
  Value(const char* s) : data_(std::string(s)) {}
  Value(Exact e) : data_(std::move(e)) {}
  Value(Array a) : data_(std::move(a)) {}
  Value(Object o) : data_(std::move(o)) {}

  // The value, or null when there is none.
  template <class T>
  static Value of(const std::optional<T>& o) {
    return o ? Value(*o) : Value();
  }

  // An array of texts (notes, hints).
  static Value strings(const std::vector<std::string>& v) {
    Array a;
    a.reserve(v.size());
    for (const auto& s : v) a.emplace_back(s);
    return a;
  }

  [[nodiscard]] const Data& data() const noexcept { return data_; }
  [[nodiscard]] bool is_null() const noexcept { return std::holds_alternative<std::nullptr_t>(data_); }

  // The member `key` of an object, appended (null) when absent; a null value becomes an object first.
  Value& operator[](std::string_view key) {
    if (is_null()) data_ = Object{};
    Object& o = std::get<Object>(data_);
    for (auto& [k, v] : o) {
      if (k == key) return v;
    }
    o.emplace_back(std::string(key), Value());
    return o.back().second;
  }
  // Appends to an array; a null value becomes an array first.
  void push_back(Value v) {
    if (is_null()) data_ = Array{};
    std::get<Array>(data_).push_back(std::move(v));
  }

 private:
  Data data_;
};

// The keys a money figure in another currency goes under when its own key names USD: the key without
// the word "usd" for its exact digits and that plus "_currency" for its ISO code ("rent_cost_usd" ->
// "rent_cost", "rent_cost_currency"; "rent_usd_per_h" -> "rent_per_h", "rent_per_h_currency";
// "usd_per_gb" -> "per_gb"); a key without the word gains "_amount" ("price" -> "price_amount",
// "price_currency"), so neither key ever names USD.
inline std::pair<std::string, std::string> other_currency_keys(std::string_view key) {
  std::string base;
  bool had_usd = false;
  std::size_t from = 0;
  while (from <= key.size()) {
    const std::size_t to = std::min(key.find('_', from), key.size());
    const std::string_view word = key.substr(from, to - from);
    if (word == "usd") had_usd = true;
    else base += (base.empty() ? "" : "_") + std::string(word);
    from = to + 1;
  }
  if (!had_usd) return {std::string(key) + "_amount", std::string(key) + "_currency"};
  if (base.empty()) return {"amount", "currency"};
  return {base, base + "_currency"};
}

}  // namespace capplan
