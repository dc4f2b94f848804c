// Text helpers shared across layers: trimming, the edit distance behind every "did you mean" (catalog names,
// model ids, JSON keys), HTML escaping (report tables, the Python records' _repr_html_), and the
// display width and word wrapping of terminal text (report tables, the command-line tool).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capplan::detail {

// Without leading and trailing spaces and tabs (the parsers of quantities and money).
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// ASCII lower and upper case: names, ids, currency codes, flag values. Bytes outside A-Z (a-z) pass
// through unchanged, so UTF-8 text is never altered, whatever the locale.
inline std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}
inline std::string upper_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

// The key a name is compared by: lower case, without the characters in `drop`. Catalog names drop
// spaces, tabs, '-' and '_' (hardware/catalog.hpp normalize_name); model names also drop '/'
// ("ViT-B/16"), and keep dots (workload/presets.hpp).
inline std::string name_key(std::string_view s, std::string_view drop) {
  std::string out;
  out.reserve(s.size());
  for (const char c : lower_ascii(s)) {
    if (drop.find(c) == std::string_view::npos) out += c;
  }
  return out;
}

// Why the digit grouping of a number ("1,234,567.5", "1_000_000", "2e12") is not well formed, or ""
// where it is (or has none): one kind of separator (',' or '_'), only before the point or exponent, a
// first group of 1-3 digits and then groups of exactly 3. A comma anywhere else ("12,50", "1,5e9",
// "1.234,56") is refused, not dropped: in much of the world it is the decimal point, and dropping it
// would read ten or a hundred times the number meant. The parsers of counts, plain numbers and money
// put this after the field and the text.
inline std::string digit_grouping_error(std::string_view number) {
  const std::size_t first_sep = number.find_first_of(",_");
  if (first_sep == std::string_view::npos) return {};
  const char kind = number[first_sep];
  const std::size_t begin = number.find_first_of("0123456789");
  const std::size_t end = std::min(number.size(), number.find_first_of(".eE"));
  const std::string example = kind == ',' ? "1,234,567" : "1_234_567";
  const std::string misplaced = std::string("has a '") + kind + "' that does not separate thousands (write " + example + ".5" +
                                (kind == ',' ? "; a decimal comma is not read)" : ")");
  if (number.find_first_of(",_", end) != std::string_view::npos || begin == std::string_view::npos || begin > first_sep)
    return misplaced;
  std::size_t group = 0;
  bool first = true;
  for (std::size_t i = begin; i <= end; ++i) {
    const char c = i < end ? number[i] : kind;
    if (c >= '0' && c <= '9') {
      ++group;
      continue;
    }
    if (c != ',' && c != '_') return !first && group != 3 ? misplaced : std::string();  // then not digits: the parser says what
    if (c != kind) return "mixes ',' and '_' between its digits (write " + example + ")";
    if (group == 0 || group > 3 || (!first && group != 3))
      return misplaced;
    first = false;
    group = 0;
  }
  return {};
}

// Levenshtein distance (insertions, deletions and substitutions each cost 1).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0u : 1u)});
      diag = up;
    }
  }
  return row[b.size()];
}

// Names grouped under a key (a reason, a kind), keys in the order they first appear, each group's
// names joined by ", ": the report lines that state one reason once for every part it covers
// (purchase-table notes, build's "Not proposed").
class NamesByKey {
 public:
  void add(std::string_view key, std::string_view name) {
    auto it = std::find_if(groups_.begin(), groups_.end(), [&](const auto& g) { return g.first == key; });
    if (it == groups_.end()) {
      groups_.emplace_back(std::string(key), std::string(name));
    } else {
      it->second += ", ";
      it->second += name;
    }
  }
  // (key, "name1, name2, ...") in first-seen order of the keys.
  const std::vector<std::pair<std::string, std::string>>& groups() const { return groups_; }

 private:
  std::vector<std::pair<std::string, std::string>> groups_;
};

// Text for HTML element content and double-quoted attribute values.
inline std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Display width of UTF-8 text in terminal columns: one per code point, since every symbol capplan
// prints ("×", "–", "†") is one column wide; continuation bytes do not count.
inline std::size_t display_width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

// `text` split at spaces into lines of at most `width` columns; a word longer than that stays
// whole on a line of its own. Lines after the first start with `indent`.
inline std::vector<std::string> wrap_words(std::string_view text, std::size_t width, std::string_view indent) {
  std::vector<std::string> lines;
  std::string line;
  auto add_word = [&](std::string_view word) {
    if (word.empty()) return;
    if (line.empty()) {
      line = word;
    } else if (display_width(line) + 1 + display_width(word) > width) {
      lines.push_back(std::move(line));
      line = std::string(indent) + std::string(word);
    } else {
      line += ' ';
      line += word;
    }
  };
  std::size_t start = 0;
  for (std::size_t space = text.find(' '); space != std::string_view::npos; space = text.find(' ', start)) {
    add_word(text.substr(start, space - start));
    start = space + 1;
  }
  add_word(text.substr(start));
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

}  // namespace capplan::detail
