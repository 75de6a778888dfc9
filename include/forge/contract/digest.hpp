// Which text a contract was read from: eval.json records the digest of the
// window.toml its bench ran under, so that `forge credit`, `forge prep` and
// `forge report` never judge a run by a contract edited since.
#pragma once

#include <string>
#include <string_view>

namespace forge {

// "crc32:1c291ca3": the CRC-32 of the bytes, a fingerprint against edits and
// mix-ups (not against forgery). Any change to the file changes it, a comment too.
[[nodiscard]] std::string contract_digest(std::string_view text);

}  // namespace forge
