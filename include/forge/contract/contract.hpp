// The timed-window contract (`window.toml`, schema version 1): what each side's
// timed call receives and produces, and the declared asymmetries between them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forge/contract/finding.hpp"

namespace forge {

inline constexpr std::string_view window_filename = "window.toml";
inline constexpr std::int64_t contract_schema_version = 1;

enum class Side { reference, student };

// Which list an asymmetry's name is extra on.
enum class Kind { ref_input, student_input, ref_output, student_output };

inline constexpr Kind all_kinds[] = {Kind::ref_input, Kind::student_input, Kind::ref_output,
                                     Kind::student_output};

inline constexpr std::string_view class_symmetrize = "symmetrize";
inline constexpr std::string_view class_price = "price";
inline constexpr std::string_view class_accept = "accept";

[[nodiscard]] std::string_view to_string(Side side) noexcept;
[[nodiscard]] std::string_view to_string(Kind kind) noexcept;  // "ref_input", ...
[[nodiscard]] std::optional<Kind> kind_from_string(std::string_view text) noexcept;

// The side that does the extra work: the student pays for ref_input and
// student_output entries, the reference for student_input and ref_output.
[[nodiscard]] Side payer(Kind kind) noexcept;
[[nodiscard]] bool is_input(Kind kind) noexcept;
// "student_kernel_regex" or "ref_kernel_regex".
[[nodiscard]] std::string_view regex_key(Side payer) noexcept;

struct Asymmetry {
    Kind kind = Kind::ref_input;
    std::string name;
    std::string cls;           // as written; `class-invalid` when not a known class
    std::string produced_by;   // as written; `produced-by-invalid` when not a known producer
    std::string derived_from;  // the other side's raw inputs, comma or space separated
    std::string student_kernel_regex;
    std::string ref_kernel_regex;
    std::string note;
    std::optional<std::vector<std::int64_t>> shape;  // prep-produced symmetrize entries only
    std::string dtype;
    int index = 0;  // 1-based position among the [[asymmetry]] tables

    [[nodiscard]] Side payer() const noexcept { return forge::payer(kind); }
    // The payer's regex (empty when none).
    [[nodiscard]] const std::string& regex() const noexcept;
    // The other side's regex key holds something: `regex-wrong-side`.
    [[nodiscard]] const std::string& wrong_side_regex() const noexcept;
    // A tensor the bench's prep step must produce: symmetrize, except a warm cache.
    [[nodiscard]] bool prep_checked() const noexcept;
    [[nodiscard]] bool priced() const noexcept;    // class price with the payer's regex
    [[nodiscard]] bool unpriced() const noexcept;  // class price without it
    [[nodiscard]] std::vector<std::string> derived_names() const;
    // "ref_input=A": the subject of every finding about this entry.
    [[nodiscard]] std::string subject() const;
};

struct WindowContract {
    std::vector<std::string> reference_inputs;
    std::vector<std::string> reference_outputs;
    std::vector<std::string> student_inputs;
    std::vector<std::string> student_outputs;
    std::vector<Asymmetry> asymmetries;
    std::string reference_window;
    std::string student_window;
    std::string path;  // the file it was read from ("" when parsed from text)
    std::string digest;  // contract_digest() of the text it was parsed from ("" when built in code)

    // Where things stand in the file, by dotted key: "reference", "reference.inputs",
    // "asymmetry[2]", "asymmetry[2].class", ... Absent for contracts built in code.
    std::map<std::string, SourceLocation, std::less<>> locations;

    // Has the author filled the file in, as opposed to the scaffolded placeholder?
    // All four lists: an output list left empty would hide a skipped output.
    [[nodiscard]] bool declared() const noexcept;

    [[nodiscard]] std::vector<std::string> missing_on_student() const;          // ref inputs the student lacks
    [[nodiscard]] std::vector<std::string> extra_on_student() const;            // student inputs the reference lacks
    [[nodiscard]] std::vector<std::string> outputs_missing_on_student() const;  // ref outputs the student lacks
    [[nodiscard]] std::vector<std::string> outputs_extra_on_student() const;    // student outputs the reference lacks

    [[nodiscard]] const Asymmetry* entry(Kind kind, std::string_view name) const noexcept;
    [[nodiscard]] std::vector<const Asymmetry*> priced_entries() const;
    [[nodiscard]] std::vector<const Asymmetry*> unpriced_entries() const;
    // Symmetrized inputs the prep step must produce, in file order.
    [[nodiscard]] std::vector<const Asymmetry*> prep_entries() const;

    // The most specific location recorded for `key`, falling back to its parents
    // ("asymmetry[2].class" -> "asymmetry[2]").
    [[nodiscard]] std::optional<SourceLocation> location_of(std::string_view key) const;
};

}  // namespace forge
