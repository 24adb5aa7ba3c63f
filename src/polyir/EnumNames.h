// One name table per enum: the name a user types and reads for each value, kept
// beside the enum, so parsing, printing and the lists in error messages agree.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyfuse {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

template <class E, size_t N>
const char* nameIn(const EnumName<E> (&table)[N], E value) {
  for (auto& e : table)
    if (e.value == value) return e.name;
  return "?";
}

template <class E, size_t N>
std::optional<E> parseIn(const EnumName<E> (&table)[N], std::string_view name) {
  for (auto& e : table)
    if (name == e.name) return e.value;
  return std::nullopt;
}

// "a, b, c": every name, for usage messages.
template <class E, size_t N>
std::string namesIn(const EnumName<E> (&table)[N], const char* separator = ", ") {
  std::string s;
  for (auto& e : table) s += (s.empty() ? "" : separator) + std::string(e.name);
  return s;
}

// Every name, in table order: the choices of a command-line option.
template <class E, size_t N>
std::vector<std::string> namesOf(const EnumName<E> (&table)[N]) {
  std::vector<std::string> v;
  for (auto& e : table) v.push_back(e.name);
  return v;
}

}  // namespace polyfuse
