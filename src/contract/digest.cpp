#include "forge/contract/digest.hpp"

#include <cstdio>

#include <boost/crc.hpp>

namespace forge {

std::string contract_digest(std::string_view text) {
    boost::crc_32_type crc;
    crc.process_bytes(text.data(), text.size());
    char digest[16];
    std::snprintf(digest, sizeof digest, "crc32:%08x", static_cast<unsigned>(crc.checksum()));
    return digest;
}

}  // namespace forge
