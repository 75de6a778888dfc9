// libFuzzer target: Nsight Compute CSV text through `forge table import --from
// ncu-csv`. TableError is the documented refusal; anything else (a crash, UB, a
// leak, a hang, another exception, a table that breaks its promises) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "forge/table/ncu_csv.hpp"
#include "kernel_table_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        hold_table_to_spec(forge::import_ncu_csv(text, "fuzz/ncu.csv"));
    } catch (const forge::TableError&) {
        // Documented: no ncu header, a launch without a duration, an unreadable value or unit.
    }
    return 0;
}
