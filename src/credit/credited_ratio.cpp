#include "forge/credit/credit.hpp"

namespace forge {

std::optional<CreditedRatio> credited_ratio(const std::optional<Credit>& credit, std::optional<double> student_ms,
                                            std::optional<double> ref_ms) noexcept {
    // Python's `not x`: a missing or zero reading gives no ratio (NaN is truthy).
    if (!credit || !credit->usable || !student_ms || *student_ms == 0 || !ref_ms || *ref_ms == 0) return std::nullopt;
    CreditedRatio out;
    out.student_fraction = credit->student.fraction;
    out.reference_fraction = credit->reference.fraction;
    out.student_ms = *student_ms;
    out.ref_ms = *ref_ms;
    out.credited_student_ms = *student_ms * (1.0 - out.student_fraction);
    out.credited_ref_ms = *ref_ms * (1.0 - out.reference_fraction);
    if (out.credited_student_ms <= 0 || out.credited_ref_ms <= 0) return std::nullopt;
    out.credited_ratio = out.credited_ref_ms / out.credited_student_ms;
    out.raw_ratio = *ref_ms / *student_ms;
    return out;
}

}  // namespace forge
