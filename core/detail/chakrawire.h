// SPDX-License-Identifier: MIT
#pragma once

#include "core/op.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace flint::core::detail {

/// A malformed protobuf encoding inside one message; the caller adds the file and message offset.
class WireError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Decodes one Chakra `Node` message straight from its protobuf wire bytes into `op`.
///
/// This is the reader's hot path: it follows the field table of core/proto/chakra_et.proto (and so
/// accepts exactly what protobuf's generated parser accepts: any field order, packed or unpacked
/// repeated scalars, unknown fields skipped, last value wins) without building an intermediate
/// message. Attributes that ASTRA-sim reads are stored in their Op fields; `pgName` receives the
/// pg_name attribute's text when present. Throws WireError.
void decodeNode(std::string_view message, Op& op, std::string& pgName, bool& hasPgName);

/// True when Node messages `message` and `reference` hold the same fields in the same encoding but for
/// the recorded times (start_time_micros, duration_micros): `message` then decodes to what `reference`
/// decodes to, with `startMicros` and `durationMicros` (its own; 0 when absent). Compares the other
/// fields' bytes without decoding them, for ranks of a measured trace. Throws WireError.
bool sameNodeExceptTimes(std::string_view message, std::string_view reference, std::uint64_t& startMicros,
                         std::uint64_t& durationMicros);

} // namespace flint::core::detail
