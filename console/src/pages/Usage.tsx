import { useState } from 'react';
import { Card, Form, Select, Table } from 'antd';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { api, query, type UsageView } from '../api/client';
import { usePolling } from '../hooks';
import { FilterForm, filterParams, useReferenceNames, type LogFilters } from './RequestLogs';

const GROUP_BY = ['day', 'access_key', 'team', 'credential', 'group', 'model', 'reason_code'] as const;

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
  const Chart = groupBy === 'day' ? LineChart : BarChart;
  return (
    <>
      <FilterForm
        onChange={setFilters}
        extra={
          <Form.Item label={t('usage.groupBy')}>
            <Select value={groupBy} onChange={setGroupBy} style={{ width: 140 }} options={GROUP_BY.map((g) => ({ value: g, label: g }))} />
          </Form.Item>
        }
      />
      <Card style={{ marginBottom: 16 }}>
        <ResponsiveContainer width="100%" height={300}>
          <Chart data={groupBy === 'day' ? [...rows].sort((a, b) => a.label.localeCompare(b.label)) : rows}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            {groupBy === 'day' ? (
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
          { title: groupBy, dataIndex: 'label' },
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
