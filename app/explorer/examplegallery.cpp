// SPDX-License-Identifier: MIT
#include "app/explorer/examplegallery.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextStream>
#include <QVBoxLayout>

namespace flint::app {
namespace {

struct ProvenanceRow {
    QString path, source, licence, what;
};

/// Rows of the Markdown table in PROVENANCE.md: | path | source | licence | what it is |.
QVector<ProvenanceRow> readProvenance(const QString& file)
{
    QVector<ProvenanceRow> rows;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return rows;
    QTextStream in(&f);
    while (!in.atEnd()) {
        const QString line = in.readLine().trimmed();
        if (!line.startsWith(QLatin1Char('|')) || line.startsWith(QStringLiteral("| ---")))
            continue;
        QStringList cells = line.split(QLatin1Char('|'));
        if (cells.size() < 6)
            continue;
        for (QString& cell : cells)
            cell = cell.trimmed().remove(QLatin1Char('`'));
        if (cells[1] == QStringLiteral("path"))
            continue; // the header
        rows.push_back({cells[1], cells[2], cells[3], cells[4]});
    }
    return rows;
}

} // namespace

QVector<ExampleEntry> findExamples(const QString& folder)
{
    QVector<ExampleEntry> examples;
    const QDir dir(folder);
    if (!dir.exists())
        return examples;
    const QVector<ProvenanceRow> provenance = readProvenance(dir.absoluteFilePath(QStringLiteral("PROVENANCE.md")));
    const auto describe = [&](ExampleEntry& e, const QString& relative, bool isFolder) {
        for (const ProvenanceRow& row : provenance)
            if (row.path == relative || (isFolder && row.path.startsWith(relative + QLatin1Char('/')))) {
                e.description = row.what;
                e.source = ExampleGallery::tr("%1 (licence: %2)").arg(row.source, row.licence);
                return;
            }
        e.description = isFolder ? ExampleGallery::tr("Chakra execution trace") : ExampleGallery::tr("XLA HLO module");
    };
    for (const QFileInfo& entry : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir sub(entry.absoluteFilePath());
        const QStringList modules = sub.entryList({QStringLiteral("*.hlo")}, QDir::Files, QDir::Name);
        for (const QString& name : modules) {
            ExampleEntry e{name, sub.absoluteFilePath(name), {}, {}};
            describe(e, entry.fileName() + QLatin1Char('/') + name, false);
            examples.push_back(e);
        }
        if (modules.isEmpty() &&
            !sub.entryList({QStringLiteral("*.et"), QStringLiteral("*.et.gz")}, QDir::Files).isEmpty()) {
            ExampleEntry e{entry.fileName(), entry.absoluteFilePath(), {}, {}};
            describe(e, entry.fileName(), true);
            examples.push_back(e);
        }
    }
    return examples;
}

ExampleGallery::ExampleGallery(QVector<ExampleEntry> examples, QWidget* parent)
    : QDialog(parent)
    , m_examples(std::move(examples))
{
    setWindowTitle(tr("Example gallery"));
    resize(720, 420);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Bundled workloads, as real compilers and tools wrote them:"), this));
    m_list = new QListWidget(this);
    for (const ExampleEntry& e : m_examples) {
        auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(e.title, e.description), m_list);
        item->setToolTip(e.path);
    }
    layout->addWidget(m_list, 1);
    m_about = new QLabel(this);
    m_about->setWordWrap(true);
    m_about->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_about);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    connect(m_list, &QListWidget::currentRowChanged, this, [this, buttons](int row) {
        buttons->button(QDialogButtonBox::Open)->setEnabled(row >= 0);
        if (row >= 0)
            m_about->setText(QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
                                 .arg(m_examples[row].title.toHtmlEscaped(),
                                      m_examples[row].description.toHtmlEscaped(),
                                      m_examples[row].source.toHtmlEscaped()));
    });
    if (!m_examples.isEmpty())
        m_list->setCurrentRow(0);
    else
        m_about->setText(tr("No bundled examples were found next to this program."));
}

QString ExampleGallery::chosenPath() const
{
    const int row = m_list->currentRow();
    return row >= 0 ? m_examples[row].path : QString();
}

} // namespace flint::app
