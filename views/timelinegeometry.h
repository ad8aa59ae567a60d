// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include <QString>

namespace flint::views {

/// The smallest 1, 2 or 5 x 10^k that is at least `raw` (> 0): a round step for ticks.
double niceStep(double raw);

/// Maps step time (seconds) to pixels for the timeline: the visible window [viewStart, viewEnd]
/// spans `plotWidth` pixels starting at x = `plotLeft`. A plain value type, unit-tested; the view
/// only draws with it.
struct TimelineGeometry {
    double viewStart = 0;    ///< seconds at the left edge of the plot
    double viewEnd = 1e-3;   ///< seconds at the right edge of the plot
    double plotLeft = 0;     ///< pixels
    double plotWidth = 100;  ///< pixels
    double totalTime = 1e-3; ///< seconds: the step time, the limit of panning and zooming out

    /// Inline: called twice per span of every lane painted.
    double mapTimeToX(double seconds) const { return plotLeft + (seconds - viewStart) / span() * plotWidth; }
    double mapXToTime(double x) const;
    double span() const { return viewEnd - viewStart; }

    /// Shows the whole step.
    void fit();
    /// Zooms by `factor` (> 1 zooms in) keeping the time under pixel `x` where it is.
    void zoomAround(double x, double factor);
    /// Shows [from, to] with `margin` of its length on each side (at least a nanosecond across),
    /// clamped to the step: for zooming to a selected op.
    void showRange(double from, double to, double margin = 0.25);
    /// Moves the window by `pixels` (positive: later), clamped to [0, totalTime].
    void panByPixels(double pixels);

    /// Ticks for a ruler: a 1-2-5 step giving at most `maxTicks` ticks over the window.
    std::vector<double> ticks(int maxTicks) const;
    /// The step between those ticks.
    double tickStep(int maxTicks) const { return niceStep(span() / maxTicks); }
};

/// The decimal byte unit (B, kB, MB, GB, TB, PB) that keeps `bytes` under 1,000: the scale to divide
/// by and the unit's name.
struct ByteUnit {
    double scale;
    const char* name;
};
ByteUnit byteUnit(double bytes);

/// "1.25 ms", "830 ns", "2.5 s": a time with a unit that keeps 3 significant digits, with the
/// current locale's decimal point (QLocale()).
std::string formatDuration(double seconds); ///< "1.25 ms", a no-break space before the unit

/// A ruler's label for the tick at `seconds` among ticks `step` apart, the largest of them
/// `largest`: one unit for the whole ruler (the largest tick's), and as many decimals as the step
/// needs ("0 s", "2 s", "4 s"; "4.22 s" at a step of 10 ms; "0.5 ms"), in the current locale.
std::string formatTick(double seconds, double step, double largest);

/// "1.5 GB", "512 B": bytes with decimal units (B, kB, MB, GB, TB), with the current locale's
/// decimal point.
std::string formatBytes(double bytes);

/// "1.37 TFLOP": a count of `unit` with a decimal prefix (k, M, G, T, P, E) that keeps it under
/// 1,000, three significant digits, in the current locale.
QString formatCount(double value, const QString& unit);

} // namespace flint::views
