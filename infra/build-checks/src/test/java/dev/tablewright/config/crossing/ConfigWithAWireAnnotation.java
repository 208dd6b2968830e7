package dev.tablewright.config.crossing;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A domain record that says how it is written on the wire: what {@code LayersTest} must refuse. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ConfigWithAWireAnnotation(String name) {
}
