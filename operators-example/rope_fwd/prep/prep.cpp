#include "prep.hpp"

#include "reference.hpp"

namespace prep {

void rope_fwd(forge::bench::PrepIo& io) {
    namespace fb = forge::bench;
    const std::int64_t seq = io.workload()["seq"];
    const std::int64_t half = io.workload()["dim"] / 2;
    fb::Tensor& cos = io.out("cos", {seq, half}, fb::DType::fp32);
    fb::Tensor& sin = io.out("sin", {seq, half}, fb::DType::fp32);
    reference::rope_tables(cos.data<float>(), sin.data<float>(), seq, half);
}

}  // namespace prep
