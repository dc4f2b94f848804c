// Motherboard: the board a build's CPU sits in and its GPUs plug into: the socket, the memory it
// takes, its size, and where its PCIe slots are, so that a build can check that the CPU fits, that
// the DIMMs are the right kind and count, and that N cards of a given width reach slots wired for
// them (a 3-slot card in slot 1 covers slots 2 and 3).
#pragma once

#include "capplan/hardware/detail/validate.hpp"
#include "capplan/hardware/memory_module.hpp"
#include "capplan/hardware/price_point.hpp"

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace capplan {

// Board sizes in increasing order, as a case lists what it takes (a case that takes E-ATX takes
// ATX): Mini-ITX 170 x 170 mm, Micro-ATX 244 x 244, ATX 305 x 244, E-ATX 305 x 330 (the width
// varies by maker), SSI-EEB 305 x 330 with the server mounting holes.
enum class BoardFormFactor { mini_itx, micro_atx, atx, e_atx, ssi_eeb };
BOOST_DESCRIBE_ENUM(BoardFormFactor, mini_itx, micro_atx, atx, e_atx, ssi_eeb)

inline constexpr std::string_view name(BoardFormFactor f) {
  switch (f) {
    case BoardFormFactor::mini_itx: return "Mini-ITX";
    case BoardFormFactor::micro_atx: return "Micro-ATX";
    case BoardFormFactor::atx: return "ATX";
    case BoardFormFactor::e_atx: return "E-ATX";
    case BoardFormFactor::ssi_eeb: return "SSI-EEB";
  }
  return "?";
}

// One PCIe slot able to hold a GPU (mechanically x16). `position` counts expansion-slot positions
// from the top of the board (1: the one nearest the CPU; an ATX board has 7 positions), as a card's
// width does. `lanes` are the electrical lanes when the board's other GPU slots are in use too
// (a slot "x16, or x8 with slot 3 populated" is 8 here; the note keeps the rule).
struct PcieSlot {
  int position = 1;
  int lanes = 16;
  int generation = 4;
  bool from_chipset = false;  // wired through the chipset (shared uplink), not the CPU
};
BOOST_DESCRIBE_STRUCT(PcieSlot, (), (position, lanes, generation, from_chipset))

struct Motherboard {
  std::string id{};                      // "asus-pro-ws-wrx80e-sage-se"
  std::string name{};
  std::vector<std::string> aliases{};
  std::string socket{};                  // "sWRX8": must equal the CPU's
  int sockets = 1;
  std::string chipset{};
  BoardFormFactor form_factor = BoardFormFactor::atx;
  DramType memory_type = DramType::ddr5;
  bool registered = false;               // takes RDIMMs (server and workstation boards)
  int dimm_slots = 0;
  DataSize max_memory{};                 // 0: not published
  int expansion_positions = 7;           // slot positions the board spans (ATX: 7)
  std::vector<PcieSlot> slots{};         // the x16-length slots, top to bottom
  std::optional<PricePoint> launch_price{};
  std::optional<PricePoint> street_price{};
  std::string source{};
  std::string as_of{};
  std::string note{};

  // Bounds: sockets 1..8, DIMM slots 1..64, expansion positions 1..20, up to 16 slots each at a
  // position within the board, in increasing order, with 1..16 lanes of generation 1..6; max memory
  // <= 100 TB.
  void validate() const {
    using namespace capplan::literals;
    detail::check_id(id, "motherboard");
    const std::string label = detail::entry_label("motherboard", id);
    detail::check_text(name, "name", label);
    detail::check_text(socket, "socket", label);
    detail::check_count(sockets, 1, 8, "sockets", label);
    detail::check_count(dimm_slots, 1, 64, "dimm_slots", label);
    detail::check_quantity(max_memory, 100_TB, "max_memory", label);
    detail::check_count(expansion_positions, 1, 20, "expansion_positions", label);
    detail::check_count(static_cast<long>(slots.size()), 0, 16, "slots", label);
    int last = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const std::string k = "slots[" + std::to_string(i) + "].";
      detail::check_count(slots[i].position, last + 1, expansion_positions, k + "position", label);
      detail::check_count(slots[i].lanes, 1, 16, k + "lanes", label);
      detail::check_count(slots[i].generation, 1, 6, k + "generation", label);
      last = slots[i].position;
    }
    if (launch_price) launch_price->validate("launch_price");
    if (street_price) street_price->validate("street_price");
    detail::check_text(source, "source", label);
    detail::check_date(as_of, "as_of");
  }
};

BOOST_DESCRIBE_STRUCT(Motherboard, (), (id, name, aliases, socket, sockets, chipset, form_factor, memory_type, registered,
                                        dimm_slots, max_memory, expansion_positions, slots, launch_price, street_price,
                                        source, as_of, note))
// What a new catalog entry must give; every other member may keep its default.
constexpr auto required_members(std::type_identity<Motherboard>) {
  return std::tuple{&Motherboard::id, &Motherboard::name, &Motherboard::socket, &Motherboard::form_factor,
                    &Motherboard::memory_type, &Motherboard::dimm_slots, &Motherboard::slots, &Motherboard::source,
                    &Motherboard::as_of};
}

// Where `cards` cards, each covering `width` slot positions, go on the board: the first slots from
// the top with at least `min_lanes` lanes whose card does not cover the next card's slot, and whose
// last card ends within `case_positions` (a case's expansion slots; a card in the bottom slot
// overhangs the board into the case's extra positions). `gap` more positions are left free below
// each card but the last (1 for open-air cards, whose fans draw air from below). Taking the
// topmost free slot each time finds a placement whenever one exists (every card spans the same
// positions). Empty when they do not all fit.
inline std::vector<PcieSlot> place_cards(const Motherboard& b, int cards, int width, int min_lanes, int case_positions, int gap = 0) {
  detail::check_count(cards, 1, 64, "cards", "(placing cards on \"" + b.id + "\")");
  detail::check_count(width, 1, 5, "width", "(slot positions a card covers)");
  detail::check_count(case_positions, 0, 20, "case_positions", "(a case's slot positions; 0: not recorded)");
  detail::check_count(gap, 0, 4, "gap", "(free slot positions below each card)");
  std::vector<PcieSlot> used;
  const int w = width;
  int free_from = 1;  // the first position no placed card covers (or keeps free)
  for (const PcieSlot& s : b.slots) {
    if (static_cast<int>(used.size()) == cards) break;
    if (s.lanes < min_lanes || s.position < free_from) continue;
    if (case_positions > 0 && s.position + w - 1 > case_positions) break;
    used.push_back(s);
    free_from = s.position + w + gap;
  }
  if (static_cast<int>(used.size()) < cards) used.clear();
  return used;
}

}  // namespace capplan
