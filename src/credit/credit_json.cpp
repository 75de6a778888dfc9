#include "forge/credit/credit.hpp"

namespace forge {

namespace {

nlohmann::json side_json(const SideCredit& side) {
    return {{"fraction", side.fraction}, {"matched", side.matched}, {"matched_ns", side.matched_ns},
            {"total_ns", side.total_ns}, {"priced", side.priced},   {"unmatched", side.unmatched},
            {"table", side.table}};
}

template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
    return value ? to_json(*value) : nlohmann::json();
}

}  // namespace

nlohmann::json to_json(const Credit& credit) {
    nlohmann::json why = nlohmann::json::array();
    for (const CreditReason& reason : credit.why) why.push_back({{"code", reason.code}, {"message", reason.message}});
    nlohmann::json out = {{"student", side_json(credit.student)},
                          {"reference", side_json(credit.reference)},
                          {"usable", credit.usable},
                          {"why", std::move(why)},
                          {"unpriced", credit.unpriced}};
    if (!credit.reconciliation.empty()) {
        nlohmann::json recon = nlohmann::json::object();
        if (credit.reconciliation.student) recon["student"] = *credit.reconciliation.student;
        if (credit.reconciliation.reference) recon["reference"] = *credit.reconciliation.reference;
        out["reconciliation"] = std::move(recon);
    }
    return out;
}

nlohmann::json to_json(const CreditedRatio& ratio) {
    return {{"credited_student_ms", ratio.credited_student_ms},
            {"credited_ref_ms", ratio.credited_ref_ms},
            {"student_ms", ratio.student_ms},
            {"ref_ms", ratio.ref_ms},
            {"credited_ratio", ratio.credited_ratio},
            {"raw_ratio", ratio.raw_ratio},
            {"student_fraction", ratio.student_fraction},
            {"reference_fraction", ratio.reference_fraction}};
}

nlohmann::json to_json(const RunCredit& run) {
    nlohmann::json workloads = nlohmann::json::array();
    for (const WorkloadCredit& w : run.workloads) {
        nlohmann::json warnings = nlohmann::json::array();
        if (w.credit) {
            for (const CreditReason& warning : w.credit->warnings)
                warnings.push_back({{"code", warning.code}, {"message", warning.message}});
        }
        workloads.push_back({{"name", w.name},
                             {"credit", or_null(w.credit)},
                             {"ratio", or_null(w.ratio)},
                             {"warnings", std::move(warnings)}});
    }
    return {{"workloads", std::move(workloads)},
            {"raw_ratio", run.raw_ratio ? nlohmann::json(*run.raw_ratio) : nlohmann::json()},
            {"credited_ratio", run.credited_ratio ? nlohmann::json(*run.credited_ratio) : nlohmann::json()}};
}

}  // namespace forge
