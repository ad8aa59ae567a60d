// SPDX-License-Identifier: MIT
#pragma once

#include "chakra_et.pb.h"
#include "core/attribute.h"

namespace flint::core::detail {

/// Converts a protobuf attribute into ours, moving its strings out.
void fromProto(ChakraProtoMsg::AttributeProto& proto, Attribute& out);
/// Fills a protobuf attribute from ours.
void toProto(const Attribute& attribute, ChakraProtoMsg::AttributeProto& out);

} // namespace flint::core::detail
