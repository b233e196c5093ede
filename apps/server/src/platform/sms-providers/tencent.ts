/**
 * Tencent Cloud SMS through its official SDK (tencentcloud-sdk-nodejs-sms, API 2021-01-11 SendSms).
 * A gateway sends only approved templates under an approved signature: the verification code goes
 * as the template's parameters `{1}` (the code) and `{2}` (minutes valid), e.g. the template
 * "您的验证码为{1}，{2}分钟内有效。" registered in the Tencent Cloud console.
 */
import { sms } from 'tencentcloud-sdk-nodejs-sms';
import type { SmsMessage, SmsProvider } from '../sms.js';
import { maskPhone } from '../sms.js';

export interface TencentSmsSettings {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  /** The verification-code template: two parameters, the code and the minutes it is valid. */
  templateId: string;
  region: string;
  /** `https://sms.tencentcloudapi.com`; tests point it at a local server replaying recorded answers. */
  endpoint: string;
  /** Seconds one call may take. */
  timeoutSeconds?: number;
}

/** The gateway refused a message: its code (`LimitExceeded.PhoneNumberDailyLimit`) and text. */
export class SmsGatewayError extends Error {
  override name = 'SmsGatewayError';
  constructor(
    readonly code: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** The slice of the SDK client this provider calls (its SendSms request and answer). */
interface SendSmsClient {
  SendSms(request: {
    PhoneNumberSet: string[];
    SmsSdkAppId: string;
    SignName: string;
    TemplateId: string;
    TemplateParamSet: string[];
    SessionContext?: string;
  }): Promise<{ SendStatusSet?: { SerialNo?: string; PhoneNumber?: string; Code?: string; Message?: string }[]; RequestId?: string }>;
}

/** Mainland numbers go in E.164 form, as the API asks. */
const e164 = (phone: string) => (phone.startsWith('+') ? phone : `+86${phone}`);

/** Sends verification codes through Tencent Cloud SMS; throws SmsGatewayError when the gateway refuses. */
export class TencentSmsProvider implements SmsProvider {
  private readonly client: SendSmsClient;

  constructor(
    private readonly settings: TencentSmsSettings,
    private readonly log: { info(details: object, message: string): void; warn(details: object, message: string): void },
  ) {
    const endpoint = new URL(settings.endpoint);
    this.client = new sms.v20210111.Client({
      credential: { secretId: settings.secretId, secretKey: settings.secretKey },
      region: settings.region,
      profile: { httpProfile: { protocol: `${endpoint.protocol}//`, endpoint: endpoint.host, reqTimeout: settings.timeoutSeconds ?? 10 } },
    });
  }

  async send(message: SmsMessage): Promise<void> {
    let answer: Awaited<ReturnType<SendSmsClient['SendSms']>>;
    try {
      answer = await this.client.SendSms({
        PhoneNumberSet: [e164(message.phone)],
        SmsSdkAppId: this.settings.sdkAppId,
        SignName: this.settings.signName,
        TemplateId: this.settings.templateId,
        TemplateParamSet: [message.params.code, String(message.params.minutes)],
        SessionContext: message.purpose,
      });
    } catch (error) {
      // The SDK throws TencentCloudSDKHttpException for an API error ({ Response: { Error } }) and network failures.
      const { code, message: text, requestId } = error as { code?: string; message?: string; requestId?: string };
      throw this.refused(message, new SmsGatewayError(code ?? 'NetworkError', text ?? String(error), requestId));
    }
    const status = answer.SendStatusSet?.[0];
    if (status?.Code !== 'Ok') throw this.refused(message, new SmsGatewayError(status?.Code ?? 'NoStatus', status?.Message ?? 'no send status in the answer', answer.RequestId));
    this.log.info({ phone: maskPhone(message.phone), serialNo: status.SerialNo, requestId: answer.RequestId }, 'sms sent through Tencent Cloud');
  }

  private refused(message: SmsMessage, error: SmsGatewayError): SmsGatewayError {
    this.log.warn({ phone: maskPhone(message.phone), code: error.code, requestId: error.requestId, reason: error.message }, 'sms refused by Tencent Cloud');
    return error;
  }
}
