import { useMemo, useState } from 'react';
import { Alert, Button, Popconfirm, Popover, Space, Switch, Table, Tag, Typography, message } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  api,
  type CredentialHealthView,
  type CredentialWithAuth,
  type GroupView,
  type PoolHealthView,
  type UnavailableModelView,
} from '../api/client';
import { runBatch, nameList, type BatchAction } from '../batch';
import { authUnavailable, modelDisplayName, statusColor, statusTag } from '../health';
import { useNow, usePolling } from '../hooks';
import {
  CREDENTIAL_TRAFFIC_WINDOW,
  latencyText,
  successRateText,
  trafficById,
  type CredentialTrafficEntry,
  type CredentialTrafficView,
} from '../credentialTraffic';
import { CredentialDrawer } from './CredentialDrawer';
import { useMay } from '../access';

/** A countdown measured on the browser's clock from the moment the answer arrived. */
export function secondsLeft(remainingAtReceipt: number | null | undefined, receivedAt: number, now: number): number | null {
  if (remainingAtReceipt === null || remainingAtReceipt === undefined) return null;
  const left = Math.ceil((receivedAt + remainingAtReceipt * 1000 - now) / 1000);
  return left > 0 ? left : null;
}

/** Models still unavailable at `now`: a cooldown that ran out locally no longer counts. */
export function stillUnavailable(models: readonly UnavailableModelView[], receivedAt: number, now: number) {
  return models.filter((model) => model.reason !== 'cooling' || secondsLeft(model.remaining_seconds, receivedAt, now) !== null);
}

export function StatusCell({ health, receivedAt }: { health: CredentialHealthView; receivedAt: number }) {
  const { t } = useTranslation();
  const now = useNow();
  const cooling = secondsLeft(health.cooldown_remaining_seconds, receivedAt, now);
  const unavailable = stillUnavailable(health.unavailable_models ?? [], receivedAt, now);
  const tag = statusTag(health.status, health.failure_count, t);
  const tagPanel = (
    <div style={{ maxWidth: 420 }} data-testid="status-panel">
      {health.last_failure_kind && (
        <div>
          <Typography.Text type="secondary">{t('lastFailureKind')}: </Typography.Text>
          {health.last_failure_kind}
        </div>
      )}
      {health.last_failure_message && (
        <div>
          <Typography.Text type="secondary">{t('lastFailure')}: </Typography.Text>
          <span data-testid="status-last-failure">{health.last_failure_message}</span>
        </div>
      )}
      {(health.reminders ?? []).map((reminder) => (
        <div
          key={reminder.code}
          data-testid={`reminder-${reminder.code}`}
          style={{ marginTop: 8, color: reminder.code === 'budget_pool' ? '#1677ff' : undefined }}
        >
          {t(`reminders.${reminder.code}`, { defaultValue: reminder.text })}
        </div>
      ))}
    </div>
  );
  const hasPanel = Boolean(health.last_failure_kind || health.last_failure_message || (health.reminders ?? []).length > 0);
  return (
    <Space size={4} wrap>
      {hasPanel ? (
        <Popover content={tagPanel} title={tag} trigger={['hover', 'focus']}>
          <Tag
            color={statusColor(health.status, health.failure_count)}
            data-testid="status-tag"
            data-panel-trigger
            tabIndex={0}
            role="button"
            aria-haspopup="dialog"
          >
            {tag}
          </Tag>
        </Popover>
      ) : (
        <Tag color={statusColor(health.status, health.failure_count)} data-testid="status-tag">
          {tag}
        </Tag>
      )}
      {cooling !== null && (
        <Tag color="blue" data-testid="cooldown-badge">
          {t('coolingBadge', { count: cooling })}
        </Tag>
      )}
      {unavailable.length > 0 && (
        <Popover
          trigger={['hover', 'focus']}
          title={t('modelsUnavailable', { count: unavailable.length })}
          content={<UnavailableModelsPanel models={unavailable} receivedAt={receivedAt} now={now} />}
        >
          <Tag color="orange" data-testid="models-badge" data-panel-trigger tabIndex={0} role="button" aria-haspopup="dialog">
            {t('modelsUnavailable', { count: unavailable.length })}
          </Tag>
        </Popover>
      )}
    </Space>
  );
}

/** The hover panel of 模型 N 不可用: upstream name (aliases), reason, time left, last failure message. */
export function UnavailableModelsPanel({ models, receivedAt, now }: { models: UnavailableModelView[]; receivedAt: number; now: number }) {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 480 }} data-testid="models-panel">
      {models.map((model) => {
        const left = secondsLeft(model.remaining_seconds, receivedAt, now);
        return (
          <div key={model.model_key} style={{ marginBottom: 8 }} data-testid="models-panel-row">
            <Typography.Text strong>
              {modelDisplayName(model.model_key, model.aliases, model.mapping_removed, t)}
            </Typography.Text>
            <div>
              <Tag>{t(`reason.${model.reason}`, { defaultValue: model.reason })}</Tag>
              {left !== null && <span data-testid="models-panel-remaining">{t('remaining', { count: left })}</span>}
            </div>
            {model.last_failure_message && (
              <Typography.Text type="secondary" data-testid="models-panel-message">
                {model.last_failure_message}
              </Typography.Text>
            )}
          </div>
        );
      })}
    </div>
  );
}

/** credential_auth_unavailable in the list: an official account whose authorization is unusable. */
export function AuthUnavailableTag({ credential }: { credential: Pick<CredentialWithAuth, 'kind' | 'status' | 'oauth'> }) {
  const { t } = useTranslation();
  if (!authUnavailable(credential)) return null;
  return (
    <Tag color="red" data-testid="auth-unavailable">
      {t('oauth.authUnavailable')}
    </Tag>
  );
}

/** Success rate over the last hour, with the counts behind it on hover and focus. */
export function SuccessRateCell({ traffic }: { traffic: CredentialTrafficEntry | undefined }) {
  const { t } = useTranslation();
  const text = successRateText(traffic);
  const title = traffic
    ? t('traffic.counts', { requests: traffic.requests, failures: traffic.failures })
    : t('traffic.none');
  const low = traffic !== undefined && traffic.requests > 0 && traffic.success_rate < 0.9;
  return (
    <span title={title} data-testid="credential-success-rate" style={low ? { color: '#cf1322' } : undefined}>
      {text}
    </span>
  );
}

/** Latency p50 / p95 over the last hour (histogram bucket bounds), the mean on hover. */
export function LatencyCell({ traffic }: { traffic: CredentialTrafficEntry | undefined }) {
  const { t } = useTranslation();
  const title = traffic ? t('traffic.mean', { ms: traffic.mean_latency_ms }) : t('traffic.none');
  return (
    <span title={title} data-testid="credential-latency" style={{ whiteSpace: 'nowrap' }}>
      {latencyText(traffic)}
    </span>
  );
}

export function CredentialsPage() {
  const { t } = useTranslation();
  const credentials = usePolling(() => api<CredentialWithAuth[]>('GET', '/credentials'));
  const health = usePolling(() => api<PoolHealthView>('GET', '/health'));
  const groups = usePolling(() => api<GroupView[]>('GET', '/groups'), 15000);
  const traffic = usePolling(
    () => api<CredentialTrafficView>('GET', `/overview/credentials?window=${CREDENTIAL_TRAFFIC_WINDOW}`),
    30000,
  );
  const trafficByCredential = useMemo(() => trafficById(traffic.data), [traffic.data]);
  const [editing, setEditing] = useState<string | null | undefined>(undefined);
  const may = useMay();
  const canCreate = may('POST', '/credentials');
  const canEdit = may('PATCH', '/credentials/{id}');
  const canArchive = may('DELETE', '/credentials/{id}');
  // the batch actions are the recovery actions (test, pause, resume, clear)
  const canBatch = may('POST', '/credentials/{id}/pause');

  const healthById = useMemo(() => {
    const map = new Map<string, CredentialHealthView>();
    for (const item of health.data?.items ?? []) map.set(item.id, item);
    return map;
  }, [health.data]);
  const groupNames = useMemo(() => new Map((groups.data ?? []).map((group) => [group.id, group.name])), [groups.data]);

  const reloadAll = () => {
    void credentials.reload();
    void health.reload();
  };

  const [selected, setSelected] = useState<string[]>([]);
  const [batchBusy, setBatchBusy] = useState<BatchAction | null>(null);

  const setEnabled = async (row: CredentialWithAuth, enabled: boolean) => {
    try {
      await api('PATCH', `/credentials/${encodeURIComponent(row.id)}`, { enabled });
      void message.success(t(enabled ? 'done.enabled' : 'done.disabled', { name: row.name }));
      reloadAll();
    } catch (e) {
      void message.error((e as Error).message);
    }
  };

  const archive = async (row: CredentialWithAuth) => {
    try {
      await api('DELETE', `/credentials/${encodeURIComponent(row.id)}`);
      void message.success(t('done.archived', { name: row.name }));
      setSelected((ids) => ids.filter((id) => id !== row.id));
      reloadAll();
    } catch (e) {
      void message.error((e as Error).message);
    }
  };

  const batch = async (action: BatchAction) => {
    const rows = (credentials.data ?? []).filter((row) => selected.includes(row.id));
    setBatchBusy(action);
    try {
      const outcome = await runBatch(action, rows);
      const text = t('done.batch', {
        action: t(`batch.${action}`),
        done: outcome.done.length,
        failed: outcome.failed.length,
        names: nameList(outcome.done),
      });
      if (outcome.failed.length === 0) void message.success(text);
      else
        void message.warning(
          `${text} — ${outcome.failed.map((failure) => `${failure.name}: ${failure.reason}`).join('; ')}`,
          8,
        );
      reloadAll();
    } finally {
      setBatchBusy(null);
    }
  };

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        {canCreate && (
          <Button type="primary" onClick={() => setEditing(null)} data-testid="credential-create">
            {t('create')}
          </Button>
        )}
        <Typography.Text type="secondary">{t('updatedLive')}</Typography.Text>
      </Space>
      {canBatch && (
      <Space wrap style={{ marginBottom: 16, marginLeft: 16 }} data-testid="batch-bar">
        <Typography.Text data-testid="batch-count">{t('batch.selected', { count: selected.length })}</Typography.Text>
        <Button size="small" disabled={selected.length === 0} loading={batchBusy === 'test'} onClick={() => void batch('test')} data-testid="batch-test">
          {t('batch.test')}
        </Button>
        <Popconfirm
          title={t('confirm.batchPause', { count: selected.length })}
          disabled={selected.length === 0}
          onConfirm={() => batch('pause')}
        >
          <Button size="small" disabled={selected.length === 0} loading={batchBusy === 'pause'} data-testid="batch-pause">
            {t('batch.pause')}
          </Button>
        </Popconfirm>
        <Button size="small" disabled={selected.length === 0} loading={batchBusy === 'resume'} onClick={() => void batch('resume')} data-testid="batch-resume">
          {t('batch.resume')}
        </Button>
        <Popconfirm
          title={t('confirm.batchClear', { count: selected.length })}
          disabled={selected.length === 0}
          onConfirm={() => batch('clear')}
        >
          <Button size="small" disabled={selected.length === 0} loading={batchBusy === 'clear'} data-testid="batch-clear">
            {t('batch.clear')}
          </Button>
        </Popconfirm>
      </Space>
      )}
      {credentials.error && <Alert type="error" message={credentials.error.message} />}
      <Table<CredentialWithAuth>
        rowKey="id"
        size="middle"
        rowSelection={
          canBatch
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as string[]),
                getCheckboxProps: (row) => ({ 'aria-label': t('batch.select', { name: row.name }) }) as never,
              }
            : undefined
        }
        loading={credentials.data === undefined && !credentials.error}
        dataSource={credentials.data ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        onRow={(row) => ({ 'data-credential-id': row.id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('col.name'),
            render: (_, row) => (
              // a long name wraps within 16 em instead of widening the table
              <div style={{ maxWidth: '16em', minWidth: '8em', overflowWrap: 'anywhere' }}>
                <Typography.Link onClick={() => setEditing(row.id)} data-testid="credential-name">
                  {row.name}
                </Typography.Link>
                <div>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {row.id}
                  </Typography.Text>
                </div>
              </div>
            ),
          },
          { title: t('col.platform'), dataIndex: 'platform' },
          { title: t('col.kind'), dataIndex: 'kind' },
          { title: t('col.priority'), dataIndex: 'priority' },
          {
            title: t('col.weight'),
            render: (_, row) =>
              row.weight_mode === 'auto' ? t('weightAuto') : `${t('weightManual')} ${row.weight}`,
          },
          {
            title: t('col.groups'),
            render: (_, row) => (row.group_ids ?? []).map((id) => <Tag key={id}>{groupNames.get(id) ?? id}</Tag>),
          },
          {
            title: t('col.enabled'),
            render: (_, row) => (
              <Popconfirm
                title={t('confirm.disable', { name: row.name })}
                disabled={!row.enabled || !canEdit}
                onConfirm={() => setEnabled(row, false)}
              >
                <Switch
                  checked={row.enabled}
                  disabled={!canEdit}
                  size="small"
                  aria-label={t('enabledOf', { name: row.name })}
                  data-testid="credential-enabled"
                  // turning on needs no confirmation; turning off stops traffic and asks first
                  onChange={(checked) => {
                    if (checked) void setEnabled(row, true);
                  }}
                />
              </Popconfirm>
            ),
          },
          {
            title: t('col.status'),
            render: (_, row) => {
              const item = healthById.get(row.id);
              return (
                <Space size={4} wrap>
                  {item ? (
                    <StatusCell health={item} receivedAt={health.receivedAt} />
                  ) : (
                    <Tag>{statusTag(row.status, row.account?.transient_failure_count ?? 0, t)}</Tag>
                  )}
                  <AuthUnavailableTag credential={row} />
                </Space>
              );
            },
          },
          {
            title: t('col.successRate'),
            render: (_, row) => <SuccessRateCell traffic={trafficByCredential.get(row.id)} />,
          },
          {
            title: t('col.latency'),
            render: (_, row) => <LatencyCell traffic={trafficByCredential.get(row.id)} />,
          },
          {
            title: t('col.actions'),
            render: (_, row) => (
              <Space>
                <Button size="small" onClick={() => setEditing(row.id)} data-testid="credential-edit">
                  {canEdit ? t('edit') : t('view')}
                </Button>
                {canArchive && (
                  <Popconfirm title={t('confirmArchive')} onConfirm={() => archive(row)}>
                    <Button size="small" danger data-testid="credential-archive">
                      {t('archive')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing !== undefined && (
        <CredentialDrawer
          credentialId={editing}
          groups={groups.data ?? []}
          onClose={() => setEditing(undefined)}
          onChanged={(id) => {
            reloadAll();
            if (id) setEditing(id);
          }}
        />
      )}
    </>
  );
}
