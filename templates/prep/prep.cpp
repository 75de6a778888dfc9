#include "prep.hpp"

namespace prep {

void @FORGE_OPERATOR@(forge::bench::PrepIo& io) {
    // One io.out() per symmetrize entry of window.toml, with the shape and dtype
    // the entry declares (one shape for every workload: here each has m = 4096);
    // `forge prep` holds what this makes to the contract:
    //
    //     forge::bench::Tensor& rstd = io.out("rstd", {io.workload()["m"]}, forge::bench::DType::fp32);
    //     compute rstd from io.in("x") (include "reference.hpp" to reuse the reference's code)
    //
    // Then register the step in the bench: b.prep(prep::@FORGE_OPERATOR@).
    static_cast<void>(io);
}

}  // namespace prep
