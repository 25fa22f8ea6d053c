import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Input, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type AuthorizeStart, type OAuthView } from '../api/client';
import { authUnavailable, callbackBody, formatDuration, remainingSeconds } from '../health';
import { useNow } from '../hooks';
import { useMay } from '../access';

const STATE_COLORS: Record<string, string> = { authorized: 'green', expired: 'red', unauthorized: 'orange' };

function errorText(e: unknown): string {
  return e instanceof ApiError ? `${e.code}: ${e.message}` : (e as Error).message;
}

/**
 * The authorization of an official credential in its drawer: state, a live access-token expiry
 * countdown, the last refresh error, and the two ways to (re)authorize it in place — pasting the
 * credentials file a platform's CLI stores, or the authorization-code flow in a browser. Tokens
 * are only ever sent, never shown.
 */
export function OAuthSection({
  credentialId,
  kind,
  status,
  oauth,
  onChanged,
}: {
  credentialId: string;
  kind: string;
  status: string;
  oauth: OAuthView | null | undefined;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const now = useNow();
  const base = `/credentials/${encodeURIComponent(credentialId)}/oauth`;
  const [pasted, setPasted] = useState('');
  const [flow, setFlow] = useState<AuthorizeStart | null>(null);
  const [callback, setCallback] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const canAuthorize = useMay()('PUT', '/credentials/{id}/oauth');

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      await work();
      setDone(true);
      onChanged();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const savePasted = () =>
    run(async () => {
      await api<OAuthView>('PUT', base, { credentials_json: pasted });
      setPasted('');
    });

  const startFlow = async () => {
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      setFlow(await api<AuthorizeStart>('POST', `${base}/authorize`, {}));
      setCallback('');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const completeFlow = () =>
    run(async () => {
      await api<OAuthView>('POST', `${base}/callback`, callbackBody(callback, flow?.state ?? null));
      setFlow(null);
      setCallback('');
    });

  const left = remainingSeconds(oauth?.access_expires_at, now);
  const flowLeft = flow ? remainingSeconds(flow.expires_at, now) : null;
  const unusable = authUnavailable({ kind, status, oauth });
  const authorizedBefore = oauth?.state === 'authorized' || oauth?.state === 'expired' || status === 'revoked';

  return (
    <Card size="small" title={t('oauth.title')} style={{ marginBottom: 16 }} data-testid="oauth-section">
      {unusable && (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} message={t('oauth.authUnavailable')} data-testid="oauth-unavailable" />
      )}
      {oauth ? (
        <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
          <Descriptions.Item label={t('oauth.state')}>
            <Tag color={STATE_COLORS[oauth.state] ?? 'default'} data-testid="oauth-state">
              {t(`oauth.states.${oauth.state}`, { defaultValue: oauth.state })}
            </Tag>
          </Descriptions.Item>
          {oauth.access_expires_at && (
            <Descriptions.Item label={t('oauth.accessExpires')}>
              <Space>
                <span>{new Date(oauth.access_expires_at).toLocaleString()}</span>
                <Typography.Text type={left === null ? 'danger' : 'secondary'} data-testid="oauth-expiry">
                  {left === null ? t('oauth.expired') : t('oauth.expiresIn', { d: formatDuration(left) })}
                </Typography.Text>
              </Space>
            </Descriptions.Item>
          )}
          {oauth.refreshed_at && (
            <Descriptions.Item label={t('oauth.refreshedAt')}>{new Date(oauth.refreshed_at).toLocaleString()}</Descriptions.Item>
          )}
          {oauth.account_id && <Descriptions.Item label={t('oauth.accountId')}>{oauth.account_id}</Descriptions.Item>}
          {oauth.last_refresh_error && (
            <Descriptions.Item label={t('oauth.lastRefreshError')}>
              <Typography.Text type="danger" data-testid="oauth-last-error">
                {oauth.last_refresh_error}
              </Typography.Text>
            </Descriptions.Item>
          )}
        </Descriptions>
      ) : (
        <Typography.Paragraph type="secondary" data-testid="oauth-none">
          {t('oauth.none')}
        </Typography.Paragraph>
      )}
      {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} data-testid="oauth-error" />}
      {done && <Alert type="success" message={t('oauth.saved')} style={{ marginBottom: 12 }} data-testid="oauth-saved" />}
      {canAuthorize && (
      <Tabs
        size="small"
        items={[
          {
            key: 'paste',
            label: <span data-testid="oauth-tab-paste">{t('oauth.paste')}</span>,
            children: (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Typography.Text type="secondary">{t('oauth.pasteHelp')}</Typography.Text>
                <Input.TextArea
                  rows={6}
                  value={pasted}
                  onChange={(e) => setPasted(e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  data-testid="oauth-paste-input"
                />
                <Button type="primary" onClick={savePasted} disabled={!pasted.trim()} loading={busy} data-testid="oauth-paste-submit">
                  {t('oauth.pasteSubmit')}
                </Button>
              </Space>
            ),
          },
          {
            key: 'browser',
            label: <span data-testid="oauth-tab-browser">{t('oauth.browser')}</span>,
            children: (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Button onClick={startFlow} loading={busy && !flow} data-testid="oauth-authorize-start">
                  {authorizedBefore ? t('oauth.browserReauthorize') : t('oauth.browserStart')}
                </Button>
                {flow && (
                  <>
                    <Typography.Text>{t('oauth.browserOpen')}</Typography.Text>
                    <Typography.Link
                      href={/^https?:\/\//i.test(flow.authorize_url) ? flow.authorize_url : undefined}
                      target="_blank"
                      rel="noopener noreferrer"
                      copyable
                      style={{ wordBreak: 'break-all' }}
                      data-testid="oauth-authorize-url"
                    >
                      {flow.authorize_url}
                    </Typography.Link>
                    {flowLeft !== null && (
                      <Typography.Text type="secondary">{t('oauth.browserExpires', { d: formatDuration(flowLeft) })}</Typography.Text>
                    )}
                    <Input
                      placeholder={t('oauth.browserPaste')}
                      value={callback}
                      onChange={(e) => setCallback(e.target.value)}
                      autoComplete="off"
                      data-testid="oauth-callback-input"
                    />
                    <Button type="primary" onClick={completeFlow} disabled={!callback.trim()} loading={busy} data-testid="oauth-callback-submit">
                      {t('oauth.browserSubmit')}
                    </Button>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      )}
    </Card>
  );
}
