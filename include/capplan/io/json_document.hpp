// Reading untrusted JSON files: parsing with line:column positions, and typed access to the
// values of an object that names the file, the entry and the field in every error.
//
//   auto doc = io::JsonDocument::parse(text, "prices.json");   // ParseError "prices.json:3:17: bad JSON: ..."
//   io::ObjectReader r(doc, doc.root(), "", "model");
//   int layers = r.integer("layers", {.min = 1, .max = 10000});
//   r.finish();                                                 // unknown keys are errors
//
// Errors are capplan::ParseError (the text is not JSON, or a value's text is not a quantity or an
// amount) or capplan::InputError (a missing key, a wrong type, a value out of range), with the
// message "<file>:<line>:<column>: <entry>: <field>: <value> <problem>"; field() is the key (a
// dotted path inside the entry, "street_price.amount") and value() the offending value as text.
// No exception of nlohmann-json escapes: the reader checks every type before it converts.
//
// Limits on untrusted input (documented in docs/catalog-files.md): a file is at most 64 MiB and
// nests at most 64 levels; duplicate keys in one object are an error (nlohmann-json would keep
// the last one silently).
#pragma once

#include "capplan/detail/text.hpp"
#include "capplan/error.hpp"
#include "capplan/units/parse.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan::io {

// Objects keep their keys in file order, so exported files read in a stable, logical order.
using Json = nlohmann::ordered_json;

inline constexpr std::size_t max_file_bytes = 64u << 20;
inline constexpr int max_nesting = 64;

// 1-based line and column (in characters: a UTF-8 sequence counts once) of a byte offset.
struct LineColumn {
  std::size_t line = 1;
  std::size_t column = 1;
};

inline LineColumn line_column(std::string_view text, std::size_t offset) {
  LineColumn lc;
  offset = std::min(offset, text.size());
  for (std::size_t i = 0; i < offset; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++lc.line;
      lc.column = 1;
    } else if ((c & 0xC0u) != 0x80u) {  // not a UTF-8 continuation byte
      ++lc.column;
    }
  }
  return lc;
}

}  // namespace capplan::io

namespace capplan::detail {

// RFC 6901 escaping of one JSON-pointer token.
inline std::string pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// A value quoted for a message, cut at 60 characters so a huge string cannot flood a log.
inline std::string quote_text(std::string_view s) {
  std::string out = "\"";
  const std::size_t n = std::min<std::size_t>(s.size(), 60);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += s[i];
    } else if (c < 0x20) {
      out += "\\u00";
      const char* hex = "0123456789abcdef";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    } else {
      out += s[i];
    }
  }
  if (s.size() > n) out += "...";
  return out + "\"";
}

// A JSON value as short text for a message: strings quoted, numbers as written by nlohmann.
inline std::string value_text(const io::Json& v) {
  if (v.is_string()) return quote_text(v.get_ref<const std::string&>());
  if (v.is_object()) return "{...}";
  if (v.is_array()) return "[...]";
  return v.dump();
}

inline std::string type_name(const io::Json& v) {
  switch (v.type()) {
    case io::Json::value_t::null: return "null";
    case io::Json::value_t::boolean: return "a boolean";
    case io::Json::value_t::number_integer:
    case io::Json::value_t::number_unsigned: return "an integer";
    case io::Json::value_t::number_float: return "a number";
    case io::Json::value_t::string: return "a string";
    case io::Json::value_t::array: return "an array";
    case io::Json::value_t::object: return "an object";
    case io::Json::value_t::binary: return "binary data";
    case io::Json::value_t::discarded: return "nothing";
  }
  return "?";
}

// An input iterator over the text that publishes how far the parser has read, so the parse
// callback knows the byte offset of each object and key.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* p, const char** published) : p_(p), published_(published) {}
  reference operator*() const { return *p_; }
  CountingIterator& operator++() {
    ++p_;
    *published_ = p_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  friend bool operator==(const CountingIterator& a, const CountingIterator& b) { return a.p_ == b.p_; }
  friend bool operator!=(const CountingIterator& a, const CountingIterator& b) { return a.p_ != b.p_; }

 private:
  const char* p_;
  const char** published_;
};

// Thrown from inside the parse callback; turned into a ParseError with a position.
struct StructureError {
  std::size_t offset;
  std::string field;
  std::string value;
  std::string problem;
};

using io::Json;

// A JSON container being read: its pointer, its keys so far (objects) or its next index (arrays).
struct JsonFrame {
  bool object;
  std::string pointer;
  std::set<std::string> keys;
  std::string key;
  std::size_t index = 0;
};

// The events of a SAX parse (JsonDocument::parse), with its bookkeeping: where each value starts (a
// JSON pointer's byte offset, for messages), no duplicate key, a nesting limit. The DOM is built here rather than by nlohmann's callback parser, whose
// end of every object scans the enclosing array for discarded values: quadratic, so that a
// 900 kB array of empty objects took minutes. Keys are appended to an object directly (the
// duplicate check above has already run), not looked up in its ordered map, which is linear.
struct JsonBuilder {
  Json& root;
  std::vector<JsonFrame>& stack;
  std::vector<Json*> values;  // the open objects and arrays
  Json* element = nullptr;    // an object's member whose value comes next
  std::map<std::string, std::size_t>& offsets;
  const std::string& t;
  const char*& read;
  const char* begin;

  [[nodiscard]] std::size_t here() const { return static_cast<std::size_t>(read - begin); }
  [[nodiscard]] std::string child_pointer() const {
    if (stack.empty()) return "";
    const JsonFrame& f = stack.back();
    return f.pointer + "/" + (f.object ? detail::pointer_token(f.key) : std::to_string(f.index));
  }
  void value_done() {
    if (!stack.empty() && !stack.back().object) ++stack.back().index;
  }
  Json* put(Json&& v) {
    if (values.empty()) {
      root = std::move(v);
      return &root;
    }
    Json& top = *values.back();
    if (top.is_array()) {
      auto& a = top.get_ref<Json::array_t&>();
      a.push_back(std::move(v));
      return &a.back();
    }
    *element = std::move(v);
    return element;
  }
  bool scalar(Json&& v) {
    put(std::move(v));
    value_done();
    return true;
  }
  bool null() { return scalar(Json(nullptr)); }
  bool boolean(bool v) { return scalar(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return scalar(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return scalar(Json(v)); }
  bool number_float(Json::number_float_t v, const std::string&) { return scalar(Json(v)); }
  bool string(Json::string_t& v) { return scalar(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return scalar(Json::binary(std::move(v))); }
  bool open(bool object) {
    if (stack.size() >= static_cast<std::size_t>(io::max_nesting)) {
      throw detail::StructureError{here() - 1, "nesting", std::to_string(stack.size() + 1),
                                      "levels of nested objects and arrays: at most " + std::to_string(io::max_nesting) + " are allowed"};
    }
    std::string p = child_pointer();
    offsets.emplace(p, here() == 0 ? 0 : here() - 1);
    stack.push_back(JsonFrame{object, std::move(p), {}, {}, 0});
    values.push_back(put(object ? Json::object() : Json::array()));
    return true;
  }
  bool start_object(std::size_t) { return open(true); }
  bool start_array(std::size_t) { return open(false); }
  bool close() {
    stack.pop_back();
    values.pop_back();
    value_done();
    return true;
  }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(Json::string_t& k) {
    JsonFrame& f = stack.back();
    // The key's opening quote: scan back from its closing quote.
    std::size_t end = here();
    std::size_t start = end > 0 ? end - 1 : 0;
    while (start > 0) {
      --start;
      if (t[start] == '"') {
        std::size_t backslashes = 0;
        while (start > backslashes && t[start - 1 - backslashes] == '\\') ++backslashes;
        if (backslashes % 2 == 0) break;
      }
    }
    if (!f.keys.insert(k).second) {
      throw detail::StructureError{start, k, detail::quote_text(k), "is a duplicate key in the same object"};
    }
    f.key = k;
    offsets.emplace(f.pointer + "/" + detail::pointer_token(k), start);
    auto& members = values.back()->get_ref<Json::object_t&>();
    // ordered_map is a vector of pairs: appending keeps the file's order.
    static_cast<Json::object_t::Container&>(members).emplace_back(k, Json());
    element = &members.back().second;
    return true;
  }
  // The parser's error, thrown as the type it is (parse_error, out_of_range) for parse() to report.
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& ex) {
    throw ex;
  }
};

}  // namespace capplan::detail

namespace capplan::io {

// A parsed JSON text with the file name and the offset of every object, array and key, by JSON
// pointer ("/gpus/3", "/gpus/3/memory"), for messages.
class JsonDocument {
 public:
  // Parses `text`; `file` names it in messages ("catalog.json", "<string>").
  // Throws ParseError "<file>:<line>:<column>: bad JSON: <what is wrong>".
  static JsonDocument parse(std::string text, std::string file) {
    JsonDocument doc;
    doc.text_ = std::make_shared<const std::string>(std::move(text));
    doc.file_ = std::move(file);
    doc.offsets_ = std::make_shared<std::map<std::string, std::size_t>>();
    const std::string& t = *doc.text_;
    if (t.size() > max_file_bytes) {
      throw ParseError("file", doc.file_,
                       doc.file_ + ": is " + std::to_string(t.size()) + " bytes; a capplan file is at most " +
                           std::to_string(max_file_bytes) + " bytes");
    }

    // nlohmann-json stops at a NUL byte as at the end of the text, so `{"gpus":[]}\0garbage` would
    // read as valid: a NUL anywhere is an error.
    if (const auto nul = t.find('\0'); nul != std::string::npos) {
      throw ParseError("json", doc.file_, doc.where(nul) + ": bad JSON: a NUL byte (text files contain none)");
    }

    std::vector<detail::JsonFrame> stack;
    const char* begin = t.data();
    const char* read = begin;
    auto& offsets = *doc.offsets_;
    auto here = [&]() { return static_cast<std::size_t>(read - begin); };

    try {
      detail::CountingIterator first(begin, &read), last(begin + t.size(), &read);
      detail::JsonBuilder b{doc.root_, stack, {}, nullptr, offsets, t, read, begin};
      Json::sax_parse(first, last, &b, nlohmann::detail::input_format_t::json, /*strict=*/true, /*ignore_comments=*/false);
    } catch (const Json::parse_error& e) {
      // nlohmann reports the byte (1-based) of the last character read.
      const std::size_t offset = e.byte == 0 ? 0 : e.byte - 1;
      throw ParseError("json", doc.file_, doc.where(offset) + ": bad JSON: " + parse_problem(e.what()));
    } catch (const detail::StructureError& e) {
      throw ParseError(e.field, e.value, doc.where(e.offset) + ": " + e.field + ": " + e.value + " " + e.problem);
    } catch (const Json::exception& e) {
      // out_of_range.406 "number overflow parsing '1e400'": no byte offset, but the parser has
      // just read the number.
      std::string what = e.what();
      if (what.starts_with("[json.exception.")) what.erase(0, what.find("] ") + 2);
      throw ParseError("json", doc.file_, doc.where(here() == 0 ? 0 : here() - 1) + ": bad JSON: " + what);
    }
    return doc;
  }

  // Reads a file and parses it. Throws InputError naming the file if it cannot be opened or
  // read, is a directory, a device or a FIFO, or holds more than `max_bytes` bytes. The limit is
  // applied while reading (at most max_bytes + 1 bytes are read), so a file that grows while it
  // is read cannot make capplan read without end.
  static JsonDocument load(const std::string& path, std::size_t max_bytes = max_file_bytes) {
    return parse(read_text_file(path, max_bytes), path);
  }

  // The bytes of a file, read with the limit above.
  static std::string read_text_file(const std::string& path, std::size_t max_bytes = max_file_bytes) {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (std::filesystem::is_directory(st)) throw InputError("file", path, path + ": is a directory, not a file");
    // A FIFO would block without a writer and a device (/dev/zero) never ends: regular files only.
    if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
      throw InputError("file", path, path + ": is not a regular file (a device, FIFO or socket)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("file", path, path + ": cannot open the file");
    std::string text;
    char buf[1 << 16];
    while (in) {
      in.read(buf, sizeof buf);
      text.append(buf, static_cast<std::size_t>(in.gcount()));
      if (text.size() > max_bytes) {
        throw InputError("file", path, path + ": is larger than " + std::to_string(max_bytes) + " bytes, the most capplan reads from such a file");
      }
    }
    if (in.bad()) throw InputError("file", path, path + ": cannot read the file");
    return text;
  }

  [[nodiscard]] const Json& root() const noexcept { return root_; }
  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  [[nodiscard]] const std::string& text() const noexcept { return *text_; }

  // "<file>:<line>:<column>" of a byte offset.
  [[nodiscard]] std::string where(std::size_t offset) const {
    const LineColumn lc = line_column(*text_, offset);
    return file_ + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }
  // "<file>:<line>:<column>" of the value at a JSON pointer, or of its nearest recorded parent;
  // "<file>" when the document was built in memory.
  [[nodiscard]] std::string where(std::string pointer) const {
    if (!offsets_) return file_;
    for (;;) {
      if (auto it = offsets_->find(pointer); it != offsets_->end()) return where(it->second);
      const auto slash = pointer.rfind('/');
      if (slash == std::string::npos) return file_;
      pointer.erase(slash);
    }
  }

  // A document for an in-memory JSON value (no positions).
  static JsonDocument from_json(Json root, std::string file) {
    JsonDocument doc;
    doc.root_ = std::move(root);
    doc.file_ = std::move(file);
    doc.text_ = std::make_shared<const std::string>();
    return doc;
  }

 private:
  // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." ->
  // "syntax error ...": the position is ours, computed from the byte offset.
  static std::string parse_problem(std::string_view what) {
    if (auto p = what.find(": "); p != std::string_view::npos && what.substr(0, p).find("parse error") != std::string_view::npos) {
      what.remove_prefix(p + 2);
    }
    return std::string(what);
  }

  Json root_;
  std::string file_;
  std::shared_ptr<const std::string> text_;
  std::shared_ptr<std::map<std::string, std::size_t>> offsets_;
};

// Integer bounds of a field.
struct IntRange {
  std::int64_t min = 0;
  std::int64_t max = std::numeric_limits<std::int32_t>::max();
};

// Typed, checked access to the keys of one JSON object (an entry of a catalog section, a model,
// a price). Every error names the file and position, the entry and the field. Call finish() at
// the end: a key nobody asked for is an error that lists the known keys.
class ObjectReader {
 public:
  // `pointer`: the object's JSON pointer in `doc`; `entry`: how messages name it
  // ("gpu \"h100-sxm\"", "model", "gpus[3]"); `prefix`: prepended to field names
  // ("street_price." for a nested price).
  ObjectReader(const JsonDocument& doc, const Json& object, std::string pointer, std::string entry,
               std::string prefix = {})
      : doc_(&doc), obj_(&object), pointer_(std::move(pointer)), entry_(std::move(entry)), prefix_(std::move(prefix)) {
    if (!object.is_object()) {
      const std::string v = detail::value_text(object);
      const std::string problem = "is " + detail::type_name(object) + "; expected an object {...}";
      if (!prefix_.empty()) fail_at(pointer_, prefix_.substr(0, prefix_.size() - 1), v, problem);
      throw InputError(entry_, v, doc_->where(pointer_) + ": " + entry_ + ": " + v + " " + problem);
    }
  }

  [[nodiscard]] const JsonDocument& document() const noexcept { return *doc_; }
  [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }
  [[nodiscard]] const std::string& entry() const noexcept { return entry_; }
  void set_entry(std::string entry) { entry_ = std::move(entry); }
  [[nodiscard]] std::string field_name(std::string_view key) const { return prefix_ + std::string(key); }
  [[nodiscard]] std::string key_pointer(std::string_view key) const {
    return pointer_ + "/" + detail::pointer_token(key);
  }

  // The value of `key`, or nullptr when it is absent or null (null means "not given").
  [[nodiscard]] const Json* find(std::string_view key) {
    known_.emplace(key);
    auto it = obj_->find(std::string(key));
    if (it == obj_->end() || it->is_null()) return nullptr;
    return &*it;
  }
  [[nodiscard]] bool has(std::string_view key) { return find(key) != nullptr; }
  // Whether the key is present with the value null ("remove this optional value").
  [[nodiscard]] bool is_null(std::string_view key) {
    known_.emplace(key);
    auto it = obj_->find(std::string(key));
    return it != obj_->end() && it->is_null();
  }
  // Marks a key as known without reading it.
  void allow(std::string_view key) { known_.emplace(key); }

  // Errors: "<file>:<line>:<col>: <entry>: <field>: <value> <problem>".
  [[noreturn]] void fail(std::string_view key, const std::string& value, std::string_view problem) const {
    fail_at(key_pointer(key), field_name(key), value, problem);
  }
  [[noreturn]] void missing(std::string_view key, std::string_view what) const {
    const std::string f = field_name(key);
    throw InputError(f, "", doc_->where(pointer_) + ": " + entry_ + ": " + f + ": is missing (" + std::string(what) + ")");
  }
  // An error about the entry as a whole (no single field).
  [[noreturn]] void fail_entry(std::string_view problem) const {
    throw InputError(entry_, "", doc_->where(pointer_) + ": " + entry_ + ": " + std::string(problem));
  }
  // Rethrows a capplan error from a conversion or a validate() with this reader's position and
  // entry in front of its message, keeping its type, field and value.
  [[noreturn]] void rethrow(const InputError& e, std::string_view key = {}) const {
    std::string ptr = key.empty() ? pointer_ : key_pointer(key);
    if (key.empty()) {
      // A validate() error names a field: point at that key when the object has it.
      std::string f = e.field();
      if (!prefix_.empty() && f.starts_with(prefix_)) f.erase(0, prefix_.size());
      const std::string top = f.substr(0, f.find_first_of(".["));
      if (!top.empty() && obj_->contains(top)) ptr = key_pointer(top);
    }
    std::string msg = doc_->where(ptr) + ": ";
    const std::string what = e.what();
    if (what.find(entry_) == std::string::npos) msg += entry_ + ": ";
    if (!key.empty() && !prefix_.empty() && what.rfind(std::string(key), 0) == 0) msg += prefix_;
    msg += what;
    const std::string field = (key.empty() ? std::string() : prefix_) + e.field();
    if (dynamic_cast<const ParseError*>(&e)) throw ParseError(field, e.value(), msg);
    if (dynamic_cast<const LookupError*>(&e)) throw LookupError(field, e.value(), msg);
    if (dynamic_cast<const CurrencyError*>(&e)) throw CurrencyError(field, e.value(), msg);
    throw InputError(field, e.value(), msg);
  }

  // A string; `required`: missing is an error; `nonempty`: "" is an error.
  std::optional<std::string> string_opt(std::string_view key, bool nonempty = false) {
    const Json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_string()) type_error(key, *v, "a string");
    const auto& s = v->get_ref<const std::string&>();
    if (nonempty && s.empty()) fail(key, "\"\"", "is empty");
    return s;
  }
  std::string string(std::string_view key, bool nonempty = true) {
    auto s = string_opt(key, nonempty);
    if (!s) missing(key, "a string");
    return *s;
  }

  std::optional<bool> boolean_opt(std::string_view key) {
    const Json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) type_error(key, *v, "true or false");
    return v->get<bool>();
  }
  bool boolean_or(std::string_view key, bool fallback) { return boolean_opt(key).value_or(fallback); }

  // A whole number in [range.min, range.max]. A float with an integral value (4096.0, 4e3) is
  // accepted; 1.5, strings and booleans are not.
  std::optional<std::int64_t> integer_opt(std::string_view key, IntRange range) {
    const Json* v = find(key);
    if (!v) return std::nullopt;
    std::int64_t n = 0;
    if (v->is_number_unsigned()) {
      const auto u = v->get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(range.max)) absurd(key, v->dump(), range);
      n = static_cast<std::int64_t>(u);
    } else if (v->is_number_integer()) {
      n = v->get<std::int64_t>();
    } else if (v->is_number_float()) {
      const double d = v->get<double>();
      if (!std::isfinite(d)) fail(key, v->dump(), "is not a finite number");
      if (std::floor(d) != d) fail(key, v->dump(), "is not a whole number");
      if (d < static_cast<double>(range.min)) below(key, v->dump(), range);
      if (d > static_cast<double>(range.max)) absurd(key, v->dump(), range);
      n = static_cast<std::int64_t>(d);
    } else {
      type_error(key, *v, "a whole number");
    }
    if (n < range.min) below(key, std::to_string(n), range);
    if (n > range.max) absurd(key, std::to_string(n), range);
    return n;
  }
  std::int64_t integer(std::string_view key, IntRange range) {
    auto n = integer_opt(key, range);
    if (!n) missing(key, "a whole number");
    return *n;
  }
  std::int64_t integer_or(std::string_view key, IntRange range, std::int64_t fallback) {
    return integer_opt(key, range).value_or(fallback);
  }
  template <class Int>
  Int integer_as(std::string_view key, IntRange range) {
    return static_cast<Int>(integer(key, range));
  }
  template <class Int>
  Int integer_as_or(std::string_view key, IntRange range, Int fallback) {
    return static_cast<Int>(integer_or(key, range, fallback));
  }

  // A quantity: text with a unit ("80 GB", "3.35 TB/s") or a number in the canonical unit
  // (bytes, B/s, FLOP/s, W). Negative values are errors; bounds are the record's validate().
  template <class Q>
  std::optional<Q> quantity_opt(std::string_view key) {
    const Json* v = find(key);
    if (!v) return std::nullopt;
    const std::string f = field_name(key);
    if (v->is_string()) {
      try {
        return capplan::parse<Q>(v->get_ref<const std::string&>(), f);
      } catch (const InputError& e) {
        rethrow_field(e, key);
      }
    }
    if (v->is_number()) {
      const double d = v->get<double>();
      if (!std::isfinite(d)) fail(key, v->dump(), "is not a finite number");
      if (d < 0) fail(key, v->dump(), "is negative; a " + std::string(units::role<Q>::name) + " must be >= 0");
      return Q::from_value(d);
    }
    type_error(key, *v,
               "a " + std::string(units::role<Q>::name) + ": text with a unit such as \"" + example<Q>() +
                   "\" or a number in " + std::string(units::role<Q>::symbols[canonical_index<Q>()].symbol));
  }
  template <class Q>
  Q quantity(std::string_view key) {
    auto q = quantity_opt<Q>(key);
    if (!q) missing(key, "a " + std::string(units::role<Q>::name) + " such as \"" + example<Q>() + "\"");
    return *q;
  }
  template <class Q>
  Q quantity_or(std::string_view key, Q fallback) {
    return quantity_opt<Q>(key).value_or(fallback);
  }

  // A list of strings.
  std::vector<std::string> strings_or_empty(std::string_view key) {
    const Json* v = find(key);
    std::vector<std::string> out;
    if (!v) return out;
    if (!v->is_array()) type_error(key, *v, "an array of strings");
    for (std::size_t i = 0; i < v->size(); ++i) {
      const Json& s = (*v)[i];
      if (!s.is_string()) {
        const std::string k = std::string(key) + "[" + std::to_string(i) + "]";
        fail_at(key_pointer(key) + "/" + std::to_string(i), field_name(k), detail::value_text(s),
                "is " + detail::type_name(s) + "; expected a string");
      }
      out.push_back(s.get<std::string>());
    }
    return out;
  }

  // An enumerator from its name; the error lists the names.
  // `names`: a range of (name, enumerator) pairs.
  template <class E, class Names>
  std::optional<E> enumeration_opt(std::string_view key, const Names& names) {
    auto s = string_opt(key);
    if (!s) return std::nullopt;
    for (const auto& [n, e] : names) {
      if (n == *s) return e;
    }
    std::string list;
    for (const auto& [n, e] : names) list += (list.empty() ? "" : ", ") + std::string(n);
    fail(key, detail::quote_text(*s), "is not one of: " + list);
  }

  // Every key of the object must have been asked for; the first unknown key is an error that
  // names the closest known key.
  void finish() const {
    for (auto it = obj_->begin(); it != obj_->end(); ++it) {
      if (known_.count(it.key())) continue;
      std::string best;
      std::size_t best_d = std::numeric_limits<std::size_t>::max();
      std::string list;
      for (const auto& k : known_) {
        list += (list.empty() ? "" : ", ") + k;
        const std::size_t d = capplan::detail::edit_distance(it.key(), k);
        if (d < best_d) {
          best_d = d;
          best = k;
        }
      }
      std::string problem = "is not a known key";
      if (!best.empty() && best_d <= std::max<std::size_t>(2, best.size() / 3)) problem += "; did you mean \"" + best + "\"?";
      problem += " (known: " + list + ")";
      fail_at(key_pointer(it.key()), field_name(it.key()), detail::quote_text(it.key()), problem);
    }
  }

  [[noreturn]] void type_error(std::string_view key, const Json& v, std::string_view expected) const {
    fail(key, detail::value_text(v), "is " + detail::type_name(v) + "; expected " + std::string(expected));
  }

 private:
  [[nodiscard]] std::string prefix(const std::string& ptr) const { return doc_->where(ptr) + ": " + entry_ + ": "; }

  [[noreturn]] void fail_at(const std::string& ptr, const std::string& field, const std::string& value,
                            std::string_view problem) const {
    throw InputError(field, value, prefix(ptr) + field + ": " + value + " " + std::string(problem));
  }
  [[noreturn]] void below(std::string_view key, const std::string& v, IntRange r) const {
    if (v.starts_with("-")) fail(key, v, "is negative; it must be >= " + std::to_string(r.min));
    if (r.min == 1 && (v == "0" || v == "0.0")) fail(key, v, "must be > 0");
    fail(key, v, "is below the minimum " + std::to_string(r.min));
  }
  [[noreturn]] void absurd(std::string_view key, const std::string& v, IntRange r) const {
    fail(key, v, "is absurd (more than " + std::to_string(r.max) + ")");
  }
  // A conversion error whose message already names the field: add position and entry.
  [[noreturn]] void rethrow_field(const InputError& e, std::string_view key) const {
    const std::string msg = prefix(key_pointer(key)) + e.what();
    if (dynamic_cast<const ParseError*>(&e)) throw ParseError(e.field(), e.value(), msg);
    throw InputError(e.field(), e.value(), msg);
  }

  template <class Q>
  static std::size_t canonical_index() {
    const auto& t = units::role<Q>::symbols;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].factor == 1.0) return i;
    }
    return 0;
  }
  template <class Q>
  static std::string example() {
    if constexpr (std::is_same_v<Q, DataSize>) return "80 GB";
    else if constexpr (std::is_same_v<Q, Bandwidth>) return "3.35 TB/s";
    else if constexpr (std::is_same_v<Q, FlopRate>) return "989 TFLOP/s";
    else if constexpr (std::is_same_v<Q, Power>) return "700 W";
    else return "1 " + std::string(units::role<Q>::symbols[canonical_index<Q>()].symbol);
  }

  const JsonDocument* doc_;
  const Json* obj_;
  std::string pointer_;
  std::string entry_;
  std::string prefix_;
  std::set<std::string, std::less<>> known_;
};

// Writes a quantity as text with a unit that reads back to exactly the same double: among the
// printable units (decimal, and binary for sizes and bandwidths) whose value is >= 1, the text
// with the shortest number that round-trips through capplan::parse ("80 GB", "3.35 TB/s",
// "1152 GiB", "2039 GB/s"), ties going to the larger decimal unit; a JSON number in the canonical
// unit when no text reads back exactly.
template <class Q>
Json quantity_json(const Q& q) {
  const double v = q.value();
  if (!std::isfinite(v) || v < 0) return Json(v);  // unreachable for validated records
  std::vector<units::UnitSymbol> candidates;
  for (const auto& u : units::role<Q>::symbols) {
    if (u.printable) candidates.push_back(u);
  }
  if constexpr (std::is_same_v<Q, DataSize>) {
    for (const auto& u : units::data_size_binary_symbols) {
      if (u.factor != 1.0) candidates.push_back(u);
    }
  } else if constexpr (std::is_same_v<Q, Bandwidth>) {
    for (const auto& u : units::bandwidth_binary_symbols) {
      if (u.factor != 1.0) candidates.push_back(u);
    }
  }
  // Larger units first, decimal before binary at equal length (stable sort keeps table order).
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const units::UnitSymbol& a, const units::UnitSymbol& b) { return a.factor > b.factor; });
  std::string best;
  std::size_t best_len = std::numeric_limits<std::size_t>::max();
  double smallest = std::numeric_limits<double>::max();
  for (const auto& u : candidates) smallest = std::min(smallest, u.factor);
  for (const auto& u : candidates) {
    const double x = v / u.factor;
    const bool usable = v == 0 ? u.factor == 1.0 : (x >= 1.0 || u.factor == smallest);
    if (!usable) continue;
    char buf[512];
    for (int decimals = 0; decimals <= 17; ++decimals) {
      const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
      if (n <= 0 || static_cast<std::size_t>(n) >= best_len) break;
      std::string_view symbol = u.symbol;  // "1 day", "1 year" in the singular, as format() writes them
      if ((symbol == "days" || symbol == "years") && std::string_view(buf) == "1") symbol.remove_suffix(1);
      const std::string text = std::string(buf) + " " + std::string(symbol);
      try {
        if (capplan::parse<Q>(text).value() == v) {
          best = text;
          best_len = static_cast<std::size_t>(n);
          break;
        }
      } catch (const InputError&) {
        break;
      }
    }
  }
  if (!best.empty()) return Json(best);
  return Json(v);
}

}  // namespace capplan::io
