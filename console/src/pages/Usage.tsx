import { useState } from 'react';
import { Button, Card, Form, Select, Table } from 'antd';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { API_BASE, api, currentToken, query, type UsageView } from '../api/client';
import { exportQuery } from '../usageExport';
import { usePolling } from '../hooks';
import { FilterForm, filterParams, useReferenceNames, type LogFilters } from './RequestLogs';

const GROUP_BY = ['day', 'hour', 'access_key', 'team', 'credential', 'group', 'model', 'reason_code'] as const;

export function UsagePage() {
  const { t } = useTranslation();
  const refs = useReferenceNames();
  const [filters, setFilters] = useState<LogFilters>({});
  const [groupBy, setGroupBy] = useState<(typeof GROUP_BY)[number]>('day');
  const usage = usePolling(
    () => api<UsageView>('GET', `/usage${query({ ...filterParams(filters), group_by: groupBy })}`),
    10000,
    [filters, groupBy],
  );
  const label = (key: string) =>
    groupBy === 'credential'
      ? refs.credentialName.get(key) ?? key
      : groupBy === 'group'
        ? refs.groupName.get(key) ?? key
        : groupBy === 'access_key'
          ? refs.keyName.get(key) ?? key
          : groupBy === 'team'
            ? refs.teamName.get(key) ?? key
            : groupBy === 'reason_code'
              ? key || t('requests.success')
              : key;
  const rows = (usage.data?.rows ?? []).map((row) => ({ ...row, label: label(row.key ?? ''), cost: row.cost_micros / 1e6 }));
  const timeline = groupBy === 'day' || groupBy === 'hour';
  const Chart = timeline ? LineChart : BarChart;
  return (
    <>
      <FilterForm
        onChange={setFilters}
        extra={
          <Form.Item label={t('usage.groupBy')}>
            <Select aria-label={t('usage.groupBy')} value={groupBy} onChange={setGroupBy} style={{ width: 140 }} options={GROUP_BY.map((g) => ({ value: g, label: t(`usage.by.${g}`) }))} />
          </Form.Item>
        }
      />
      <Button data-testid="usage-export" style={{ marginBottom: 16 }} onClick={() => void downloadCsv(exportQuery(filterParams(filters), Date.now()))}>
        {t('usage.exportCsv')}
      </Button>
      <Card style={{ marginBottom: 16 }}>
        <ResponsiveContainer width="100%" height={300}>
          <Chart data={timeline ? [...rows].sort((a, b) => a.label.localeCompare(b.label)) : rows}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            {timeline ? (
              <>
                <Line type="monotone" dataKey="requests" name={t('col.requests')} stroke="#1677ff" isAnimationActive={false} />
                <Line type="monotone" dataKey="failures" name={t('col.failures')} stroke="#ff4d4f" isAnimationActive={false} />
              </>
            ) : (
              <>
                <Bar dataKey="requests" name={t('col.requests')} fill="#1677ff" isAnimationActive={false} />
                <Bar dataKey="failures" name={t('col.failures')} fill="#ff4d4f" isAnimationActive={false} />
              </>
            )}
          </Chart>
        </ResponsiveContainer>
      </Card>
      <Table
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={rows}
        summary={() =>
          usage.data?.total ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{t('usage.total')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1}>{usage.data.total.requests}</Table.Summary.Cell>
              <Table.Summary.Cell index={2}>{usage.data.total.failures}</Table.Summary.Cell>
              <Table.Summary.Cell index={3}>{usage.data.total.input_tokens}</Table.Summary.Cell>
              <Table.Summary.Cell index={4}>{usage.data.total.output_tokens}</Table.Summary.Cell>
              <Table.Summary.Cell index={5}>{(usage.data.total.cost_micros / 1e6).toFixed(4)}</Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
        columns={[
          { title: t(`usage.by.${groupBy}`), dataIndex: 'label' },
          { title: t('col.requests'), dataIndex: 'requests' },
          { title: t('col.failures'), dataIndex: 'failures' },
          { title: t('col.tokensIn'), dataIndex: 'input_tokens' },
          { title: t('col.tokensOut'), dataIndex: 'output_tokens' },
          { title: t('col.cost'), render: (_, r) => r.cost.toFixed(4) },
        ]}
      />
    </>
  );
}

/** Downloads the export as a file: the admin token goes in the header, never in a link. */
async function downloadCsv(path: string) {
  const response = await fetch(API_BASE + path, { headers: { authorization: `Bearer ${currentToken() ?? ''}` } });
  if (!response.ok) {
    throw new Error(`export answered ${response.status}`);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'usage.csv';
  link.click();
  URL.revokeObjectURL(url);
}
