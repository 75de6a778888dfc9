#include <iostream>

#include "commands.hpp"
#include "forge/exit_code.hpp"
#include "forge/io/file.hpp"
#include "forge/table/ncu_csv.hpp"
#include "forge/table/nsys_csv.hpp"

namespace forge::cli {

int run_table_import(const TableImportOptions& options) {
    KernelTable table =
        options.from == "ncu-csv" ? import_ncu_csv(options.file) : import_nsys_csv(std::filesystem::path{options.file});
    if (table.profiler) table.profiler->calls = options.calls;
    const std::string json = to_json(table).dump(2) + '\n';
    if (options.out.empty()) std::cout << json;
    else write_file_atomically(options.out, json);
    return exit_code::ok;
}

}  // namespace forge::cli
