package dev.tablewright.mcp.crossing;

import dev.tablewright.tools.ApplyColumnChangeTool;

/**
 * A door that runs a tool's implementation itself instead of reading its definition from the catalogue and invoking
 * its function: what {@code LayersTest} must refuse (used only by its self-check).
 */
public final class DoorThatRunsATool {
    public Object tool() {
        return new ApplyColumnChangeTool();
    }
}
