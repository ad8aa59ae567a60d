// SPDX-License-Identifier: MIT
#include "app/explorer/exportactions.h"

#include "app/explorer/session.h"
#include "core/estimator/estimateexport.h"
#include "core/fileio.h"
#include "views/dagview.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHash>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace flint::app {
namespace {

/// Writes `bytes` to `path` whole or not at all; throws core::OutputError.
void writeWhole(const QString& path, const std::string& bytes)
{
    core::OutputTransaction output;
    output.write(path.toStdString(), bytes);
    output.commit();
}

} // namespace

ExportActions::ExportActions(Session& session, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_window(window)
{}

namespace {

/// A name chosen in a save dialog, with `suffix` added when it has none: "history" typed in a CSV
/// dialog means history.csv, as the dialog's filter says.
QString withSuffix(const QString& path, const QString& suffix)
{
    if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty())
        return path;
    return path + QLatin1Char('.') + suffix;
}

} // namespace

void ExportActions::exportTrace()
{
    const auto evaluation = m_session.evaluation();
    if (!evaluation)
        return;
    const QString path = withSuffix(QFileDialog::getSaveFileName(m_window, tr("Export a Perfetto trace"), QString(),
                                                                 tr("Chrome/Perfetto trace (*.json)")),
                                    QStringLiteral("json"));
    if (path.isEmpty())
        return;
    m_session.jobs().start(
        views::JobRunner::Kind::Export, tr("Writing %1…").arg(path),
        [this, evaluation, path](const core::JobControl&) -> std::function<void()> {
            try {
                writeWhole(path, core::chromeTraceJson(*evaluation->result, evaluation->workload->workload, 256,
                                                       &evaluation->scenario.cluster));
                return [this, path] { Q_EMIT written(tr("Wrote %1").arg(path)); };
            } catch (const std::exception& e) {
                const QString details = QString::fromStdString(e.what());
                return [this, path, details] { Q_EMIT failed(tr("Cannot write %1").arg(path), details); };
            }
        });
}

void ExportActions::exportChakra()
{
    if (!m_session.workload())
        return;
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export Chakra traces: choose a folder and a file prefix"), QStringLiteral("workload"),
        tr("Chakra trace prefix (PREFIX.RANK.et and PREFIX.json)"));
    if (!path.isEmpty())
        m_session.exportChakra(path);
}

void ExportActions::exportBreakdownCsv()
{
    const auto evaluation = m_session.evaluation();
    if (!evaluation)
        return;
    const QString path = withSuffix(
        QFileDialog::getSaveFileName(m_window, tr("Export the per-rank breakdown"), QString(), tr("CSV (*.csv)")),
        QStringLiteral("csv"));
    if (path.isEmpty())
        return;
    m_session.jobs().start(views::JobRunner::Kind::Export, tr("Writing %1…").arg(path),
                           [this, evaluation, path](const core::JobControl&) -> std::function<void()> {
                               try {
                                   writeWhole(path, core::breakdownCsv(*evaluation->result));
                                   return [this, path] { Q_EMIT written(tr("Wrote %1").arg(path)); };
                               } catch (const std::exception& e) {
                                   const QString details = QString::fromStdString(e.what());
                                   return [this, path, details] {
                                       Q_EMIT failed(tr("Cannot write %1").arg(path), details);
                                   };
                               }
                           });
}

void ExportActions::exportHistoryCsv(const QString& csv)
{
    const QString path = withSuffix(
        QFileDialog::getSaveFileName(m_window, tr("Export the configurations tried"), QString(), tr("CSV (*.csv)")),
        QStringLiteral("csv"));
    if (!path.isEmpty())
        writeCsv(path, csv);
}

bool ExportActions::writeCsv(const QString& path, const QString& csv)
{
    try {
        writeWhole(path, csv.toStdString());
    } catch (const std::exception& e) {
        Q_EMIT failed(tr("Cannot write %1").arg(path), QString::fromStdString(e.what()));
        return false;
    }
    Q_EMIT written(tr("Wrote %1").arg(path));
    return true;
}

void ExportActions::exportView(QWidget* page, views::DagView* graph, const QString& title)
{
    QString filter;
    const QString chosen = QFileDialog::getSaveFileName(m_window, tr("Export the current view"), QString(),
                                                        tr("PNG image (*.png);;SVG drawing (*.svg)"), &filter);
    const QString path =
        withSuffix(chosen, filter.contains(QStringLiteral("*.svg")) ? QStringLiteral("svg") : QStringLiteral("png"));
    if (!path.isEmpty())
        writeView(page, graph, title, path);
}

bool ExportActions::writeView(QWidget* page, views::DagView* graph, const QString& title, const QString& path)
{
    if (page == nullptr)
        return false;
    const bool svg = path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
    QByteArray bytes;
    if (page->isAncestorOf(graph)) {
        bytes = graph->renderImage(svg); // the whole graph, not just what is scrolled into view
    } else {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (svg) {
            QSvgGenerator generator;
            generator.setOutputDevice(&buffer);
            generator.setSize(page->size());
            generator.setViewBox(page->rect());
            generator.setTitle(title);
            QPainter painter(&generator);
            page->render(&painter);
            if (!painter.end())
                bytes.clear();
        } else if (!page->grab().save(&buffer, "PNG")) {
            bytes.clear();
        }
    }
    try {
        if (bytes.isEmpty())
            throw core::OutputError("the view could not be rendered");
        writeWhole(path, bytes.toStdString());
        Q_EMIT written(tr("Wrote %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        Q_EMIT failed(tr("Cannot write %1").arg(path), QString::fromStdString(e.what()));
        return false;
    }
}

QImage ExportActions::withPalette(const QImage& image, int colours)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, qint64> counts;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            ++counts[line[x]];
    }
    std::vector<std::pair<qint64, QRgb>> byCount;
    byCount.reserve(static_cast<std::size_t>(counts.size()));
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        byCount.emplace_back(it.value(), it.key());
    std::sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    QList<QRgb> palette;
    colours = std::clamp(colours, 2, 256); // an index is one byte
    for (std::size_t i = 0; i < byCount.size() && palette.size() < colours; ++i)
        palette << byCount[i].second;
    // Each distinct colour to its nearest palette entry, found once.
    QHash<QRgb, uchar> nearest;
    for (const auto& [count, colour] : byCount) {
        int best = 0;
        long long bestDistance = -1;
        for (int i = 0; i < palette.size(); ++i) {
            const long long dr = qRed(colour) - qRed(palette[i]), dg = qGreen(colour) - qGreen(palette[i]),
                            db = qBlue(colour) - qBlue(palette[i]);
            const long long distance = dr * dr + dg * dg + db * db;
            if (bestDistance < 0 || distance < bestDistance) {
                bestDistance = distance;
                best = i;
            }
        }
        nearest.insert(colour, static_cast<uchar>(best));
    }
    QImage out(rgb.size(), QImage::Format_Indexed8);
    out.setColorTable(palette);
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        uchar* target = out.scanLine(y);
        for (int x = 0; x < rgb.width(); ++x)
            target[x] = nearest.value(line[x]);
    }
    return out;
}

} // namespace flint::app
