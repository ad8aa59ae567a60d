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

} // namespace flint::core::detail
