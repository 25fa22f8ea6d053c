import { useState } from 'react';
import { Button, Card, Descriptions, Drawer, Empty, Form, Input, InputNumber, Popconfirm, Space, Table, Tag, Typography, message } from 'antd';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type KeyWithLimits, type Limits, type TeamView } from '../api/client';
import { fieldsForCode } from '../health';
import { usePolling } from '../hooks';
import { NO_LIMITS, formatUsd, limitsFromForm, limitsSummary } from '../limits';
import { teamSpend, useSpend, type SpendEntry } from '../spend';
import { ErrorLine, HeadroomCell, LimitsFields, SpendCell } from './LimitsFields';
import { boundsRule } from '../formErrors';
import { readableTeams, useMay, useMe } from '../access';

export const TEAM_PAGE_SIZE = 20;

/** What the console says when a delete is refused: team.has_keys names the reason and the way out. */
export function deleteRefusal(error: unknown, team: Pick<TeamView, 'name' | 'key_count'>, t: TFunction): string {
  if (error instanceof ApiError && error.code === 'team.has_keys') {
    return t('team.hasKeys', { name: team.name, count: Math.max(1, team.key_count) });
  }
  return error instanceof ApiError ? `${error.code}: ${error.message}` : String(error);
}

/** The create / edit body: name, weight and all five limits (a cleared field is sent as null). */
export function teamBody(values: { id?: string; name: string; weight?: number | null; limits?: Partial<Record<keyof Limits, unknown>> }, creating: boolean) {
  const body: Record<string, unknown> = { name: values.name, weight: values.weight ?? 1, limits: limitsFromForm(values.limits) };
  if (creating && values.id) body.id = values.id;
  return body;
}

function TeamSpend({ entry }: { entry: SpendEntry | undefined }) {
  const { t } = useTranslation();
  const spend = entry?.value;
  if (!spend) return <SpendCell entry={entry} />;
  const rows = [...(spend.by_model ?? [])].sort((a, b) => b.spend_usd - a.spend_usd);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('col.spend')}>
          <SpendCell entry={entry} />
        </Descriptions.Item>
        <Descriptions.Item label={t('col.headroom')}>
          <HeadroomCell entry={entry} />
        </Descriptions.Item>
        <Descriptions.Item label={t('team.windowStart')}>
          {spend.budget_window_start ? new Date(spend.budget_window_start).toLocaleString() : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('col.requests')}>{spend.requests}</Descriptions.Item>
        <Descriptions.Item label={t('team.tokens')}>
          {spend.input_tokens} / {spend.output_tokens}
        </Descriptions.Item>
        <Descriptions.Item label={t('team.cacheTokens')}>
          {spend.cache_read_tokens} / {spend.cache_write_5m_tokens} /{' '}
          {spend.cache_write_1h_tokens}
        </Descriptions.Item>
        <Descriptions.Item label={t('team.reasoningTokens')}>{spend.reasoning_tokens}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5}>{t('team.spendByModel')}</Typography.Title>
      {rows.length === 0 ? (
        <Empty description={t('team.noSpend')} />
      ) : (
        <>
          <div data-testid="team-spend-chart" style={{ width: '100%', height: Math.max(160, rows.length * 36 + 40) }}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={rows} layout="vertical" margin={{ left: 24 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" tickFormatter={(v: number) => formatUsd(v)} />
                <YAxis type="category" dataKey="model" width={160} />
                <Tooltip formatter={(v: number) => formatUsd(v)} />
                <Bar dataKey="spend_usd" name={t('col.cost')} fill="#1677ff" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <Table
            rowKey="model"
            size="small"
            pagination={false}
            dataSource={rows}
            onRow={(row) => ({ 'data-model': row.model }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              { title: t('col.model'), dataIndex: 'model' },
              { title: t('col.cost'), render: (_, r) => formatUsd(r.spend_usd) },
              { title: t('col.requests'), dataIndex: 'requests' },
            ]}
          />
        </>
      )}
    </Space>
  );
}

export function TeamsPage() {
  const { t } = useTranslation();
  const me = useMe();
  const may = useMay();
  const canCreate = may('POST', '/teams');
  const canEdit = may('PATCH', '/teams/{id}');
  const canDelete = may('DELETE', '/teams/{id}');
  // a team role reads its own team only (GET /teams/{id}): the page is that team's page
  const ownTeam = me?.team_id ?? null;
  const teams = usePolling(() => readableTeams(me), 5000, [me]);
  const keys = usePolling(() => api<KeyWithLimits[]>('GET', '/access-keys'), 15000);
  const [current, setCurrent] = useState(1);
  const [editing, setEditing] = useState<TeamView | null | undefined>(undefined);
  const [detailId, setDetailId] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();

  const all = teams.data ?? [];
  // spend is fetched for the rows on this page only (and the team whose detail is open)
  const visible = all.slice((current - 1) * TEAM_PAGE_SIZE, current * TEAM_PAGE_SIZE).map((team) => team.id);
  const spendOf = useSpend(teamSpend, detailId && !visible.includes(detailId) ? [...visible, detailId] : visible);
  const detail = all.find((team) => team.id === detailId) ?? null;
  const teamKeys = (keys.data ?? []).filter((key) => detailId !== null && key.team_id === detailId);

  const open = (team: TeamView | null) => {
    setFormError(null);
    form.resetFields();
    form.setFieldsValue(team ? { name: team.name, weight: team.weight, limits: team.limits ?? NO_LIMITS } : { weight: 1, limits: NO_LIMITS });
    setEditing(team);
  };

  const save = async () => {
    let values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setFormError(null);
    try {
      if (editing) {
        await api('PATCH', `/teams/${encodeURIComponent(editing.id)}`, teamBody(values, false));
        teamSpend.invalidate(editing.id);
      } else {
        await api('POST', '/teams', teamBody(values, true));
      }
      setEditing(undefined);
      void message.success(t('saved'));
      void teams.reload();
    } catch (e) {
      if (e instanceof ApiError) {
        const fields = fieldsForCode(e.code, e.message);
        form.setFields(fields.map((name) => ({ name, errors: [`${e.code}: ${e.message}`] })));
      }
      setFormError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (team: TeamView) => {
    setListError(null);
    try {
      await api('DELETE', `/teams/${encodeURIComponent(team.id)}`);
      teamSpend.invalidate(team.id);
      if (detailId === team.id) setDetailId(null);
      void message.success(t('team.deleted'));
      void teams.reload();
    } catch (e) {
      setListError(deleteRefusal(e, team, t));
    }
  };

  return (
    <>
      {ownTeam && (
        <Typography.Paragraph data-testid="own-team">
          {t('team.yours', { name: all.find((team) => team.id === ownTeam)?.name ?? ownTeam })}
        </Typography.Paragraph>
      )}
      {canCreate && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => open(null)} data-testid="team-create">
          {t('create')}
        </Button>
      )}
      <ErrorLine text={listError} testId="team-delete-error" />
      <ErrorLine text={teams.error && !teams.data ? teams.error.message : null} />
      <Table<TeamView>
        rowKey="id"
        dataSource={all}
        loading={teams.data === undefined && !teams.error}
        pagination={{ current, pageSize: TEAM_PAGE_SIZE, onChange: setCurrent, hideOnSinglePage: true, showSizeChanger: false }}
        onRow={(row) => ({ 'data-team-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('col.name'),
            render: (_, team) => (
              <a onClick={() => setDetailId(team.id)} data-testid="team-open">
                {team.name}
              </a>
            ),
          },
          { title: t('col.limits'), render: (_, team) => <span data-testid="team-limits">{limitsSummary(team.limits, t)}</span> },
          { title: t('team.weight'), render: (_, team) => <span data-testid="team-weight">{team.weight}</span> },
          { title: t('col.keyCount'), render: (_, team) => <span data-testid="team-key-count">{team.key_count}</span> },
          { title: t('col.spend'), render: (_, team) => <SpendCell entry={spendOf(team.id)} /> },
          { title: t('col.headroom'), render: (_, team) => <HeadroomCell entry={spendOf(team.id)} /> },
          ...(canEdit || canDelete
            ? [
                {
                  title: t('col.actions'),
                  render: (_: unknown, team: TeamView) => (
                    <Space>
                      {canEdit && (
                        <Button size="small" onClick={() => open(team)} data-testid="team-edit">
                          {t('edit')}
                        </Button>
                      )}
                      {canDelete && (
                        <Popconfirm title={t('confirmDelete')} onConfirm={() => remove(team)} okButtonProps={{ 'data-testid': 'team-delete-confirm' } as never}>
                          <Button size="small" danger data-testid="team-delete">
                            {t('delete')}
                          </Button>
                        </Popconfirm>
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Drawer
        open={editing !== undefined}
        title={editing ? t('team.edit') : t('team.new')}
        width={720}
        onClose={() => setEditing(undefined)}
        destroyOnClose
        extra={
          <Space>
            <Button onClick={() => setEditing(undefined)}>{t('cancel')}</Button>
            <Button type="primary" loading={saving} onClick={save} id="team-save">
              {t('save')}
            </Button>
          </Space>
        }
      >
        <ErrorLine text={formError} testId="team-form-error" />
        <Form form={form} layout="vertical">
          {!editing && (
            <Form.Item htmlFor="team-id" name="id" label="id">
              <Input id="team-id" placeholder="optional" />
            </Form.Item>
          )}
          <Form.Item htmlFor="team-name" name="name" label={t('col.name')} rules={[{ required: true, whitespace: true }]}>
            <Input id="team-name" />
          </Form.Item>
          <Form.Item htmlFor="team-weight" name="weight" label={t('team.weight')} extra={t('team.weightHelp')} rules={[{ required: true }, boundsRule('team.weight')]}>
            <InputNumber id="team-weight" />
          </Form.Item>
          <LimitsFields idPrefix="team" />
        </Form>
      </Drawer>
      <Drawer open={detail !== null} title={detail ? `${t('team.detail')} · ${detail.name}` : ''} width={760} onClose={() => setDetailId(null)} data-testid="team-detail">
        {detail && (
          <Space direction="vertical" style={{ width: '100%' }} size="large">
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label="id">
                <Typography.Text code>{detail.id}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('col.limits')}>
                <span data-testid="team-detail-limits">{limitsSummary(detail.limits, t)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('team.weight')}>{detail.weight}</Descriptions.Item>
              <Descriptions.Item label={t('team.window')}>
                {detail.limits?.budget_duration
                  ? `${detail.limits.budget_duration} · ${t(`limits.durations.${detail.limits.budget_duration}`)}`
                  : detail.limits?.max_budget != null
                    ? t('team.lifetime')
                    : t('team.noBudget')}
              </Descriptions.Item>
            </Descriptions>
            <Card size="small" title={t('team.keys')} data-testid="team-detail-keys">
              {teamKeys.length === 0 ? (
                <Empty description={t('team.noKeys')} />
              ) : (
                <Table<KeyWithLimits>
                  rowKey="id"
                  size="small"
                  pagination={false}
                  dataSource={teamKeys}
                  onRow={(row) => ({ 'data-key-id': row.id }) as React.HTMLAttributes<HTMLElement>}
                  columns={[
                    { title: t('col.name'), dataIndex: 'name' },
                    { title: t('col.prefix'), render: (_, k) => <Typography.Text code>{k.key_prefix}…</Typography.Text> },
                    { title: t('col.enabled'), render: (_, k) => (k.enabled ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>) },
                    { title: t('col.limits'), render: (_, k) => limitsSummary(k.limits, t) },
                  ]}
                />
              )}
            </Card>
            <Card size="small" title={t('col.spend')}>
              <TeamSpend entry={spendOf(detail.id)} />
            </Card>
          </Space>
        )}
      </Drawer>
    </>
  );
}
