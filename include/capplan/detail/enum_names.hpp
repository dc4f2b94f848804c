// Enumerator names from one description: an enumeration described with BOOST_DESCRIBE_ENUM beside
// its declaration gets its names in JSON files, on the command line and in Python from here, so
// adding an enumerator is one change (plus its display name where the enumeration has one).
//
//   enum class FormFactor { sxm, oam, pcie, consumer, soc };
//   BOOST_DESCRIBE_ENUM(FormFactor, sxm, oam, pcie, consumer, soc)
//
//   detail::enum_name(FormFactor::sxm)                 "sxm"
//   detail::parse_enum<FormFactor>("oam", "--form-factor")
//   for (const auto& [name, value] : detail::enum_entries<FormFactor>) ...
#pragma once

#include "capplan/error.hpp"

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace capplan::detail {

template <class E>
concept described_enum = std::is_enum_v<E> && boost::describe::has_describe_enumerators<E>::value;

template <class E, std::size_t N>
constexpr bool numbered_in_order(const std::array<std::pair<std::string_view, E>, N>& a) {
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(a[i].second) != i) return false;
  }
  return N > 0;
}

template <class E, template <class...> class List, class... D>
constexpr auto entries(List<D...>) {
  constexpr std::array<std::pair<std::string_view, E>, sizeof...(D)> a{{{D::name, D::value}...}};
  // Code that indexes tables by an enumerator (all_precisions, the 80 PLUS tables) relies on the
  // values 0, 1, 2, ...; a description that skips or reorders enumerators is a compile error.
  static_assert(numbered_in_order(a), "BOOST_DESCRIBE_ENUM must list the enumerators 0, 1, 2, ... in declaration order");
  return a;
}

// Every (name, enumerator) of E in declaration order.
template <described_enum E>
inline constexpr auto enum_entries = detail::entries<E>(boost::describe::describe_enumerators<E>());

template <described_enum E>
inline constexpr std::size_t enum_count = enum_entries<E>.size();

// Every enumerator of E in declaration order.
template <described_enum E>
inline constexpr auto enum_values = [] {
  std::array<E, enum_count<E>> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = enum_entries<E>[i].second;
  return a;
}();

// The enumerator's C++ name; "?" for a value that is no enumerator.
template <described_enum E>
constexpr std::string_view enum_name(E e) {
  for (const auto& [n, v] : enum_entries<E>) {
    if (v == e) return n;
  }
  return "?";
}

// "a, b, c", or with `last` = " or ": "a, b or c".
template <described_enum E>
std::string enum_name_list(std::string_view last = ", ") {
  std::string s;
  for (std::size_t i = 0; i < enum_count<E>; ++i) {
    if (i > 0) s += i + 1 == enum_count<E> ? last : std::string_view(", ");
    s += enum_entries<E>[i].first;
  }
  return s;
}

// The enumerator named `text`; InputError naming `field` and listing every name otherwise.
template <described_enum E>
E parse_enum(std::string_view text, std::string_view field) {
  for (const auto& [n, v] : enum_entries<E>) {
    if (n == text) return v;
  }
  fail(field, "\"" + std::string(text) + "\"", "is not one of: " + enum_name_list<E>());
}

}  // namespace capplan::detail
