// SPDX-License-Identifier: MIT
#include "views/timelinegeometry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <QLocale>

namespace flint::views {

double TimelineGeometry::mapXToTime(double x) const
{
    return viewStart + (x - plotLeft) / plotWidth * span();
}

void TimelineGeometry::fit()
{
    viewStart = 0;
    viewEnd = totalTime > 0 ? totalTime : 1e-6;
}

void TimelineGeometry::zoomAround(double x, double factor)
{
    if (factor <= 0)
        return;
    const double anchor = mapXToTime(x);
    // Not closer than a nanosecond across the plot, not wider than the whole step.
    const double limit = totalTime > 0 ? totalTime : 1e-6;
    const double newSpan = std::clamp(span() / factor, 1e-9, limit);
    const double fraction = (x - plotLeft) / plotWidth;
    viewStart = anchor - fraction * newSpan;
    viewEnd = viewStart + newSpan;
    panByPixels(0); // clamp
}

void TimelineGeometry::showRange(double from, double to, double margin)
{
    const double limit = totalTime > 0 ? totalTime : 1e-6;
    const double length = std::max(to - from, 0.0);
    const double newSpan = std::clamp(length * (1 + 2 * std::max(margin, 0.0)), 1e-9, limit);
    viewStart = (from + to) / 2 - newSpan / 2;
    viewEnd = viewStart + newSpan;
    panByPixels(0); // clamp
}

void TimelineGeometry::panByPixels(double pixels)
{
    const double width = span();
    double start = viewStart + pixels / plotWidth * width;
    const double limit = std::max(totalTime, width);
    start = std::clamp(start, 0.0, limit - width);
    viewStart = start;
    viewEnd = start + width;
}

std::vector<double> TimelineGeometry::ticks(int maxTicks) const
{
    std::vector<double> result;
    if (maxTicks < 1 || span() <= 0)
        return result;
    const double step = tickStep(maxTicks);
    for (double t = std::ceil(viewStart / step) * step; t <= viewEnd + step * 1e-9; t += step)
        result.push_back(t);
    return result;
}

namespace {

/// `text` with its decimal point as the current locale writes it ("1,25 ms" in German).
std::string localised(std::string text)
{
    const QString point = QLocale().decimalPoint();
    if (point == QStringLiteral("."))
        return text;
    const std::string local = point.toStdString();
    for (std::size_t at = text.find('.'); at != std::string::npos; at = text.find('.', at + local.size()))
        text.replace(at, 1, local);
    return text;
}

} // namespace

std::string formatTick(double seconds, double step, double largest)
{
    double scale = 1;
    const char* name = "s";
    const double magnitude = std::fabs(largest);
    if (magnitude < 1e-6) {
        scale = 1e-9;
        name = "ns";
    } else if (magnitude < 1e-3) {
        scale = 1e-6;
        name = "\u00b5s";
    } else if (magnitude < 1) {
        scale = 1e-3;
        name = "ms";
    }
    const int decimals = step > 0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(step / scale) - 1e-9)), 0, 6) : 0;
    const double value = seconds / scale;
    char text[48];
    // Not "-0 s" for a tick a rounding error below zero.
    std::snprintf(text, sizeof text, "%.*f\u00a0%s", decimals, std::fabs(value) < 0.5 * step / scale ? 0.0 : value,
                  name);
    return localised(text);
}

std::string formatDuration(double seconds)
{
    struct Unit {
        double scale;
        const char* name;
    };
    const Unit units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "\u00b5s"}, {1e-9, "ns"}};
    // A no-break space between number and unit, so that wrapped text never leaves the unit alone on
    // the next line ("576" / "ms" in Chinese Details).
    const double magnitude = std::fabs(seconds);
    if (magnitude == 0)
        return "0\u00a0s";
    for (const Unit& unit : units)
        if (magnitude >= unit.scale || unit.scale == 1e-9) {
            const double value = seconds / unit.scale;
            char text[32];
            const double a = std::fabs(value);
            std::snprintf(text, sizeof text,
                          a >= 100  ? "%.0f\u00a0%s"
                          : a >= 10 ? "%.1f\u00a0%s"
                                    : "%.2f\u00a0%s",
                          value, unit.name);
            return localised(text);
        }
    return "0\u00a0s";
}

double niceStep(double raw)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= raw)
            return m * magnitude;
    return 10 * magnitude;
}

ByteUnit byteUnit(double bytes)
{
    static const char* const names[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    double scale = 1;
    int unit = 0;
    while (std::fabs(bytes) / scale >= 1000 && unit < 5) {
        scale *= 1000;
        ++unit;
    }
    return {scale, names[unit]};
}

std::string formatBytes(double bytes)
{
    const ByteUnit unit = byteUnit(bytes);
    char text[32];
    std::snprintf(text, sizeof text, unit.scale == 1 ? "%.0f %s" : "%.3g %s", bytes / unit.scale, unit.name);
    return localised(text);
}

QString formatCount(double value, const QString& unit)
{
    static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    int p = 0;
    while (value >= 1000 && p < 6) {
        value /= 1000;
        ++p;
    }
    return QStringLiteral("%1 %2%3").arg(QLocale().toString(value, 'g', 3)).arg(QLatin1String(prefixes[p]), unit);
}

} // namespace flint::views
