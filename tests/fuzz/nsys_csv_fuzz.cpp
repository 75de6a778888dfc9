// libFuzzer target: Nsight Systems CSV text through `forge table import --from
// nsys-csv`. TableError is the documented refusal; anything else (a crash, UB, a
// leak, a hang, another exception, a table that breaks its promises) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "forge/table/nsys_csv.hpp"
#include "kernel_table_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        hold_table_to_spec(forge::import_nsys_csv(text, "fuzz/nsys.csv"));
    } catch (const forge::TableError&) {
        // Documented: no kernel summary (SKIPPED included), no rows, an unreadable row.
    }
    return 0;
}
