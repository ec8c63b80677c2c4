import { DEFAULT_LANG, LANGS, TOKEN_MESSAGES, type Lang } from '@ipp/contracts';

type Catalogue = Record<string, { zh: string; en: string }>;

/** Every message the server can put in a failure envelope, in both languages. */
const MESSAGES = {
  operationFailed: { zh: '操作失败', en: 'Operation fail' },
  internal: { zh: '服务器内部错误（请求编号 {requestId}）', en: 'Internal server error (request {requestId})' },
  notFound: { zh: '接口不支持：{method} {url}', en: 'Interface not supported: {method} {url}' },
  tokenInvalid: { zh: '登录已失效，请重新登录', en: TOKEN_MESSAGES.invalid },
  tokenDisplaced: { zh: '该账号异地登录，请重新登录', en: TOKEN_MESSAGES.displaced },
  forbidden: { zh: '没有权限执行此操作', en: 'You do not have permission for this operation' },
  demoReadOnly: { zh: '演示账号为只读，不能修改数据', en: 'The demo account is read-only' },
  badLogin: { zh: '账号或密码错误', en: 'Incorrect account or password' },
  throttled: {
    zh: '登录失败次数过多，请 {seconds} 秒后再试',
    en: 'Too many failed sign-in attempts. Try again in {seconds} seconds',
  },
  throttledPassword: {
    zh: '当前密码错误次数过多，请 {seconds} 秒后再试',
    en: 'Too many wrong current passwords. Try again in {seconds} seconds',
  },
  busy: { zh: '服务器繁忙，请 {seconds} 秒后再试', en: 'The server is busy. Try again in {seconds} seconds' },
  ingestBusy: {
    zh: '服务器正在处理的图像已满，请 {seconds} 秒后重新发送（未保存）',
    en: 'The server is working on as many images as it can; send this one again in {seconds} seconds (it was not stored)',
  },
  tooManyUploads: {
    zh: '该仪器已有 {max} 个图像正在上传，请 {seconds} 秒后重新发送（未保存）',
    en: 'This instrument already has {max} images uploading; send this one again in {seconds} seconds (it was not stored)',
  },
  tooManyStreams: {
    zh: '您已打开 {max} 个实时更新连接，请关闭部分页面后再试',
    en: 'You already have {max} live update connections open; close some tabs and try again',
  },
  tooManyInFlight: {
    zh: '您已有 {max} 个耗时请求正在处理，请等待完成后再试',
    en: 'You already have {max} long-running requests in progress; wait for them to finish and try again',
  },
  deadline: {
    zh: '服务器未能在 {seconds} 秒内完成此请求，请稍后重试（请求编号 {requestId}）',
    en: 'The server did not finish this request within {seconds} seconds; try again later (request {requestId})',
  },
  headersTooLarge: { zh: '请求头过大', en: 'The request headers are too large' },
  requestTimeout: {
    zh: '请求未能在 {seconds} 秒内完整送达',
    en: 'The request did not arrive completely within {seconds} seconds',
  },
  badRequest: { zh: '请求格式不正确', en: 'The request is malformed' },
  accountTaken: { zh: '该账号名已被使用，请换一个', en: 'This account name is taken; choose another' },
  devIdTaken: { zh: '该站点 ID 已被使用，请换一个', en: 'This site ID is taken; choose another' },
  badParam: { zh: '参数错误：{field} {reason}', en: 'Invalid parameter: {field} {reason}' },
  badUrl: { zh: '请求地址的编码不正确', en: 'The request address is not correctly encoded' },
  badJson: { zh: '请求体不是有效的 JSON', en: 'The request body is not valid JSON' },
  bodyTooLarge: { zh: '请求体过大', en: 'The request body is too large' },
  badContentType: { zh: '不支持的请求内容类型', en: 'Unsupported content type' },
  badMultipart: {
    zh: '上传的表单格式不正确，请重新选择文件上传',
    en: 'The upload form is malformed; please choose the file and upload again',
  },
  userNotFound: { zh: '用户不存在', en: 'The user does not exist' },
  teamNotFound: { zh: '团队不存在', en: 'The team does not exist' },
  teamHasMembers: {
    zh: '团队中还有 {users} 个用户和 {ipps} 台仪器，请先删除或移出',
    en: 'The team still has {users} user(s) and {ipps} instrument(s); remove or move them first',
  },
  teamLimit: {
    zh: '每个团队最多 {admins} 个管理员和 {users} 个用户',
    en: 'Every team has {admins} administrator and {users} users',
  },
  cannotDeleteSelf: { zh: '不能删除自己的账号', en: 'You cannot delete your own account' },
  lastSuperadmin: { zh: '不能删除或降级最后一个超级管理员', en: 'The last Super Admin cannot be removed or demoted' },
  adminOwnTeamOnly: {
    zh: '团队管理员只能管理本团队的账号',
    en: 'A Team Admin may only manage accounts of their own team',
  },
  adminGrantsUserOnly: {
    zh: '团队管理员只能创建和管理角色为“普通用户”的账号，不能创建或管理团队管理员',
    en: 'A Team Admin may create and manage only accounts with the role User, not Team Admins',
  },
  adminOwnRole: { zh: '团队管理员不能更改自己的角色', en: 'A Team Admin cannot change their own role' },
  wrongCurrentPassword: { zh: '当前密码不正确', en: 'The current password is incorrect' },
  badImage: { zh: '请上传 PNG、JPEG 或 WebP 图片', en: 'Please upload a PNG, JPEG or WebP image' },
  fileTooLarge: { zh: '文件过大（最大 {max}）', en: 'The file is too large (at most {max})' },
  imageTooLarge: {
    zh: '图像尺寸过大（{width}×{height}，最多 {max} 像素，每边最多 {side}）',
    en: 'The image is too large ({width}×{height}; at most {max} pixels and {side} per side)',
  },
  fileMissing: { zh: '请选择要上传的文件', en: 'Please choose a file to upload' },
  badFile: { zh: '文件格式错误：{detail}', en: 'Malformed file: {detail}' },
  teamRequired: { zh: '请选择团队！', en: 'Please select a Team!' },
  ippNotFound: { zh: '仪器不存在', en: 'The instrument does not exist' },
  'alarmMail.subject': {
    zh: '[IPP 告警 · {severity}] {station}：{condition}',
    en: '[IPP alarm · {severity}] {station}: {condition}',
  },
  'alarmMail.again': { zh: '（仍未解除）', en: ' (still active)' },
  'alarmMail.cleared': { zh: '（已解除）', en: ' (cleared)' },
  'alarmMail.escalated': { zh: '（仍未确认，已升级）', en: ' (still unacknowledged: escalated)' },
  'alarmMail.testSubject': { zh: '[IPP 告警] 测试邮件', en: '[IPP alarm] Test message' },
  'alarmMail.testBody': {
    zh: '这是 IPP 控制台发送的测试邮件：告警邮件可以送达此地址。',
    en: 'This is a test message from the IPP console: alarm e-mails reach this address.',
  },
  'alarmMail.severity.critical': { zh: '紧急', en: 'critical' },
  'alarmMail.severity.major': { zh: '重要', en: 'major' },
  'alarmMail.severity.minor': { zh: '次要', en: 'minor' },
  'alarmMail.severity.warning': { zh: '提示', en: 'warning' },
  'alarmMail.body': {
    zh: '站点：{station}\n规则：{rule}（{condition}）\n读数：{value}\n发生时间：{raised}',
    en: 'Station: {station}\nRule: {rule} ({condition})\nReading: {value}\nRaised: {raised}',
  },
  'alarmMail.clearedAt': { zh: '解除时间：{time}', en: 'Cleared: {time}' },
  'alarmMail.onPage': {
    zh: '在控制台的“告警”页面确认或查看。',
    en: 'Acknowledge or read it on the Alarms page of the console.',
  },
  'alarmMail.openAt': { zh: '在控制台中确认或查看：{url}', en: 'Acknowledge or read it in the console: {url}' },
  'alarmMail.testLink': { zh: '控制台的“告警”页面：{url}', en: "The console's Alarms page: {url}" },
  'alarmMail.unit.intervals': { zh: '个清洁周期', en: 'intervals' },
  'alarmMail.unit.perLitre': { zh: '个/L', en: 'ind/L' },
  'alarmMail.duration.days': { zh: '{days} 天 {hours} 小时', en: '{days} d {hours} h' },
  'alarmMail.duration.hours': { zh: '{hours} 小时 {minutes} 分钟', en: '{hours} h {minutes} min' },
  'alarmMail.duration.minutes': { zh: '{minutes} 分钟', en: '{minutes} min' },
  'alarmMail.offline': { zh: '离线 {limit} 分钟及以上', en: 'offline for {limit} min or more' },
  'alarmMail.temperature_high': { zh: '舱内温度高于 {limit} °C', en: 'internal temperature above {limit} °C' },
  'alarmMail.humidity_high': { zh: '舱内湿度高于 {limit} %', en: 'internal humidity above {limit} %' },
  'alarmMail.storage_low': { zh: '剩余存储低于 {limit} GB', en: 'free storage below {limit} GB' },
  'alarmMail.wiper_fault': { zh: '雨刷报告故障', en: 'the wiper reports a fault' },
  'alarmMail.wiper_no_clean': { zh: '雨刷超过 {limit} 个清洁周期未清洁', en: 'no wiper clean for over {limit} intervals' },
  'alarmMail.no_images': { zh: '在线但 {limit} 分钟及以上无图像', en: 'online, no image for {limit} min or more' },
  'alarmMail.uvc_off_sampling': { zh: '采样时 UV-C 照明关闭', en: 'sampling with the UV-C illuminator off' },
  'series.temperature_c': { zh: '内部温度', en: 'Internal temperature' },
  'series.humidity_pct': { zh: '内部湿度', en: 'Internal humidity' },
  'series.cpu_temp_c': { zh: 'CPU 温度', en: 'CPU temperature' },
  'series.gpu_temp_c': { zh: 'GPU 温度', en: 'GPU temperature' },
  'series.ram_mb': { zh: '已用内存', en: 'RAM in use' },
  'series.storage_gb': { zh: '可用存储', en: 'Free storage' },
  'series.lp_current_a': { zh: '低功耗板电流', en: 'Low-power board current' },
  'series.lp_voltage_v': { zh: '低功耗板电压', en: 'Low-power board voltage' },
  'series.lp_temperature_c': { zh: '低功耗板温度', en: 'Low-power board temperature' },
  'series.cb_current_a': { zh: '载板电流', en: 'Carrier board current' },
  'series.cb_voltage_v': { zh: '载板电压', en: 'Carrier board voltage' },
  'series.uvc_port_frequency_hz': { zh: '成像窗口频率（实测）', en: 'Imaging-port frequency (measured)' },
  'series.uvc_port_duty_pct': { zh: '成像窗口占空比（实测）', en: 'Imaging-port duty cycle (measured)' },
  'series.uvc_illuminator_frequency_hz': { zh: '照明灯频率（实测）', en: 'Illuminator frequency (measured)' },
  'series.uvc_illuminator_duty_pct': { zh: '照明灯占空比（实测）', en: 'Illuminator duty cycle (measured)' },
  'series.uvc_voltage_v': { zh: 'UV-C 模块电压', en: 'UV-C module voltage' },
  'series.uvc_current_a': { zh: 'UV-C 模块电流', en: 'UV-C module current' },
  'series.wiper_clean_count': { zh: '累计清洁次数', en: 'Total clean count' },
  'series.volume_5min_ml': { zh: '近 5 分钟采样体积', en: 'Sampling volume, last 5 minutes' },
  'alarmMail.series.above': { zh: '{series}高于 {limit} {unit}', en: '{series} above {limit} {unit}' },
  'alarmMail.series.below': { zh: '{series}低于 {limit} {unit}', en: '{series} below {limit} {unit}' },
  'alarmMail.series.outside': { zh: '{series}超出 {low}–{limit} {unit}', en: '{series} outside {low}–{limit} {unit}' },
  'alarmMail.series.rate': {
    zh: '{series}在 {minutes} 分钟内变化超过 {limit} {unit}',
    en: '{series} changed by more than {limit} {unit} within {minutes} min',
  },
  'alarmMail.class_concentration': {
    zh: '{class} 浓度在 {hours} 小时内高于 {limit} 个/L',
    en: '{class} above {limit} ind/L over {hours} h',
  },
  alarmRuleNotFound: { zh: '告警规则不存在', en: 'The alarm rule does not exist' },
  alarmNotFound: { zh: '告警不存在', en: 'The alarm does not exist' },
  alarmNotActive: { zh: '该告警已被确认或已解除', en: 'The alarm has already been acknowledged or has cleared' },
  alarmNotOpen: { zh: '该告警未触发或已解除', en: 'The alarm is not raised or has already cleared' },
  silenceNotFound: { zh: '静默不存在或已结束', en: 'The silence does not exist or has ended' },
  silenceInPast: { zh: '静默的结束时间必须晚于现在', en: 'A silence must end in the future' },
  silenceTooLong: {
    zh: '一次静默最长 30 天，且最多提前 90 天安排',
    en: 'A silence lasts at most 30 days and starts at most 90 days ahead',
  },
  silenceLimit: {
    zh: '每个团队最多同时有 {max} 个进行中或计划中的静默',
    en: 'A team keeps at most {max} running or planned silences',
  },
  alarmCommentLimit: { zh: '每条告警最多 {max} 条评论', en: 'An alarm keeps at most {max} comments' },
  webhookNotSet: { zh: '尚未设置 Webhook 地址', en: 'No webhook URL is set' },
  emailUnavailable: { zh: '本服务器未配置 SMTP，无法发送邮件', en: 'This server sends no e-mail (no SMTP server is set up)' },
  noEmailAddress: { zh: '您的账号没有邮箱地址', en: 'Your account has no e-mail address' },
  webhookAddressNotAllowed: {
    zh: 'url：不能向本机、内网、链路本地或组播地址发送告警（如需内部接收端，请由运维人员在 WEBHOOK_ALLOW_HOSTS 中允许该主机）',
    en: 'url: alarms cannot be posted to this host, a private, link-local or multicast address (an operator may allow an internal receiver by name in WEBHOOK_ALLOW_HOSTS)',
  },
  alarmRuleLimit: {
    zh: '每个团队最多 {max} 条告警规则，请先删除不用的规则',
    en: 'A team can have at most {max} alarm rules: delete unused ones first',
  },
  ippOwnTeamOnly: { zh: '团队管理员只能管理本团队的仪器', en: "A Team Admin may only manage their own team's instruments" },
  noLogo: { zh: '尚未上传标志', en: 'No logo has been uploaded' },
  deviceKeyInvalid: { zh: '设备密钥缺失或无效', en: 'The device key is missing or not valid' },
  ippHasImages: {
    zh: '该仪器还有 {count} 张图像，请先删除或移走',
    en: 'The instrument still has {count} image(s); delete or move them first',
  },
  roiNotFound: { zh: 'ROI 信息获取失败', en: 'ROI info. obtain fail' },
  noImageResource: { zh: '没有图片资源', en: 'No image resource' },
  unsupportedType: { zh: '不支持类型', en: 'Unsupported type' },
  dateFormat: { zh: '日期格式错误', en: 'Date format error' },
  selectDate: { zh: '请选择日期', en: 'Please select date' },
  classNameEmpty: { zh: '类别名称不能为空', en: 'Class name can not be empty' },
  classNameBad: { zh: '命名不符合规范', en: 'Naming does not conform to the specifications.' },
  titleTaken: { zh: '已存在同名类别：{title}', en: 'A class named {title} already exists here' },
  labelTaken: { zh: '标签序号 {label} 已被类别 {title} 使用', en: 'Label index {label} is already used by class {title}' },
  noHiClass: { zh: 'HI ROIs 下没有 {class} 类别', en: 'No {class} Class under HI ROIs' },
  exampleReadOnly: { zh: '示例 ROI 不支持操作', en: 'Operation not supported for Example ROIs' },
  notSupported: { zh: '不支持此操作', en: 'Operation not supported' },
  aiSelected: {
    zh: '选中的图像中有 AI 识别的图像，不支持此操作',
    en: 'Operation not supported: the selection holds AI-labelled images',
  },
  demoImages: { zh: '演示图像不支持此操作', en: 'Operation not supported for demo images' },
  nothingToUndo: {
    zh: '没有可撤销的操作（只能撤销自己最近一次批量操作，且须在 15 分钟内）',
    en: 'Nothing to undo: only your last bulk action can be undone, within 15 minutes',
  },
  notInReviewQueue: {
    zh: '选中的图像不在审核队列中（或不在此操作要求的审核状态）',
    en: 'The selection holds images that are not in the review queue in the state this action needs',
  },
  folderNotFound: { zh: '文件夹不存在', en: 'The folder does not exist' },
  classNotFound: { zh: '类别不存在', en: 'The class does not exist' },
  systemClass: { zh: '系统类别不能删除或重命名', en: 'System classes cannot be deleted or renamed' },
  classShared: {
    zh: '该类别由所有团队共用，只有超级管理员可以修改',
    en: 'This class is shared by all teams: only the Super Admin can change it',
  },
  classNotOwned: {
    zh: '该类别属于另一个团队，只有该团队的管理员或超级管理员可以修改',
    en: "This class belongs to another team: only that team's admins or the Super Admin can change it",
  },
  classUsedByOthers: {
    zh: '其他团队的图像也在使用该类别，只有超级管理员可以重命名或删除',
    en: "Other teams' images carry this class: only the Super Admin can rename or delete it",
  },
  classLimit: {
    zh: '每个团队最多拥有 {max} 个类别（编号 001–999 由所有团队共用），请先删除不用的类别',
    en: 'A team can own at most {max} classes (the numbers 001–999 are shared by all teams): delete unused ones first',
  },
  classInUse: {
    zh: '类别 {title} 还有 {count} 张图像，不能删除',
    en: 'Class {title} still has {count} image(s) and cannot be deleted',
  },
  targetMismatch: {
    zh: '目标类别不属于这些图像所在的团队或站点',
    en: "The target class is not in the images' team or station",
  },
  labelChanged: {
    zh: '重命名不能改变类别的标签序号 {label}',
    en: 'A rename cannot change the class label index {label}',
  },
  alarmExportTooLarge: {
    zh: '该时段有 {count} 条告警，一次导出最多 {max} 条：请缩短时段分次导出',
    en: 'The period holds {count} alarms and an export holds at most {max}: export a shorter period at a time',
  },
  exportTooLarge: {
    zh: '导出最多 {max} 张图像，请缩小范围',
    en: 'An export holds at most {max} images: narrow the selection',
  },
  badZip: { zh: '无法导入该压缩包：{reason}', en: 'This zip cannot be imported: {reason}' },
  zipTooLarge: {
    zh: '压缩包解压后超过 {max}，请拆分成较小的压缩包分别导入',
    en: 'The zip unpacks to more than {max}; split it into smaller zips and import them one at a time',
  },
  zipTooManyEntries: {
    zh: '压缩包中的文件超过 {max} 个，请拆分成较小的压缩包分别导入',
    en: 'The zip holds more than {max} files; split it into smaller zips and import them one at a time',
  },
  zipNoImages: {
    zh: '压缩包中没有可导入的图像（应为每个类别一个文件夹，文件夹中放该类别的图像）',
    en: 'The zip holds no images to import (expected one folder of images per class)',
  },
  importNotFound: { zh: '没有找到该导入', en: 'No such import' },
  ecotaxaTooManyRows: {
    zh: 'EcoTaxa 表格超过 {max} 行对象，一次导入最多 {max} 行：请把导出拆分成较小的部分分别导入（未导入任何内容）',
    en: 'The EcoTaxa table holds more than {max} object rows, the most one import takes: split the export and import the parts one at a time (nothing was imported)',
  },
  zipNoEcotaxaTable: {
    zh: '压缩包中没有含对象的 EcoTaxa 表格（*.tsv 及其引用的图像）',
    en: 'The zip holds no EcoTaxa table with objects (a *.tsv and the images it names)',
  },
  noImagesInRange: { zh: '该时间范围内没有图像', en: 'No images in that time range' },
  noModel: {
    zh: '本团队还没有可用的识别模型，请先训练模型',
    en: 'This team has no trained recognition model yet: train one first',
  },
  modelNotFound: { zh: '模型不存在', en: 'The model does not exist' },
  modelNotReady: { zh: '模型尚未训练完成，不能启用', en: 'The model is not trained yet and cannot be activated' },
  noReport: {
    zh: '该模型版本没有评估报告（训练未完成，或训练于报告功能之前）；请重新训练',
    en: 'This model version has no evaluation report (not trained yet, or trained before reports existed); train again',
  },
  jobNotFound: { zh: '任务不存在', en: 'The job does not exist' },
  rangeEmpty: { zh: '结束时间必须晚于开始时间', en: 'The end must be after the start' },
  rangeTooLong: { zh: '时间范围最长 {days} 天', en: 'The time range is at most {days} days' },
  jobFinished: { zh: '任务已结束，不能取消', en: 'The job has already ended and cannot be cancelled' },
  trainingRunning: { zh: '本团队已有训练任务在进行', en: 'A training job is already running for this team' },
  notReferenceFolder: {
    zh: '只能向团队图库或 Xcube 图库的类别添加参考图像',
    en: 'Reference images go into a class of the team library or the Xcube library',
  },
  noReferences: { zh: '参考图库中还没有图像', en: 'The reference library has no images yet' },
  'reason.future': { zh: '晚于服务器当前时间', en: 'is later than the server time' },
  'reason.notImage': { zh: '不是 PNG、JPEG 或 WebP 图片', en: 'is not a PNG, JPEG or WebP image' },
  // Reasons used inside badParam.
  'reason.taken': { zh: '已存在', en: 'is already taken' },
  'reason.unknownTeam': { zh: '对应的团队不存在', en: 'names no existing team' },
  'reason.samePassword': { zh: '不能与当前密码相同', en: 'must differ from the current password' },
  'reason.required': { zh: '为必填项', en: 'is required' },
  'reason.windowHour': { zh: '至少为 60 分钟（按整小时计算）', en: 'must be at least 60 minutes (whole hours are counted)' },
  'reason.notNegative': { zh: '不能为负数', en: 'must not be negative' },
  'reason.positive': { zh: '必须大于 0', en: 'must be above 0' },
  'reason.bandOrder': { zh: '必须低于上限', en: 'must be below the upper limit' },
  'reason.rateWindow': { zh: '必须在 1 到 1440 分钟之间', en: 'must be between 1 and 1440 minutes' },
  'reason.escalateToNobody': { zh: '请选择升级通知的人员或 Webhook', en: 'must name someone, or the webhook, to escalate to' },
  'reason.endAfterStart': { zh: '必须晚于开始时间', en: 'must be after the start' },
  'reason.periodTooLong': { zh: '时段过长（最多 366 天）', en: 'is too long a period (at most 366 days)' },
  'reason.noClearLevel': { zh: '该类型的规则没有解除阈值', en: 'does not apply to this kind of rule' },
  'reason.clearAtMostLimit': { zh: '不能高于告警阈值', en: 'must not be above the limit' },
  'reason.clearAtLeastLimit': { zh: '不能低于告警阈值', en: 'must not be below the limit' },
  'reason.timeZone': {
    zh: '不是已知的 IANA 时区名称（例如 Asia/Shanghai）',
    en: 'is not a known IANA time zone name (such as Asia/Shanghai)',
  },
  'reason.type': { zh: '类型应为 {expected}', en: 'must be of type {expected}' },
  'reason.number': { zh: '应为数字', en: 'must be a number' },
  'reason.integer': { zh: '应为整数', en: 'must be a whole number' },
  'reason.tooShort': { zh: '长度至少为 {min}', en: 'must be at least {min} characters' },
  'reason.tooLong': { zh: '长度至多为 {max}', en: 'must be at most {max} characters' },
  'reason.tooSmall': { zh: '不能小于 {min}', en: 'must be at least {min}' },
  'reason.tooBig': { zh: '不能大于 {max}', en: 'must be at most {max}' },
  'reason.format': { zh: '格式不正确', en: 'has an invalid format' },
  'reason.enum': { zh: '取值应为 {values} 之一', en: 'must be one of {values}' },
  'reason.unknownKey': { zh: '是未知字段', en: 'is not a known field' },
  'reason.invalid': { zh: '取值无效', en: 'is invalid' },
  'reason.latinName': {
    zh: "应为拉丁学名（以字母开头，只含字母、数字、空格和 . ( ) ' < _ -）",
    en: "must be a Latin name (a letter first; letters, digits, spaces and . ( ) ' < _ - only)",
  },
  'reason.noSettings': { zh: '至少选择一项设置', en: 'must name at least one setting' },
  'reason.noUserSetting': {
    zh: '至少需要 language（zh 或 en）、size 或 view 中的一项',
    en: 'must give at least one of language (zh or en), size or view',
  },
  'reason.adminDataRoute': {
    zh: '该页面的数据仅对管理员开放，不能授予普通用户',
    en: 'shows data the server gives only to administrators; it cannot be granted to users',
  },
  'reason.nul': { zh: '不能包含空字符（NUL）', en: 'must not contain the NUL character' },
} satisfies Catalogue;

export type MessageKey = keyof typeof MESSAGES;
export type MessageParams = Record<string, string | number>;

/** Whether a string is one of the messages' keys. */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(MESSAGES, key);

export function parseLang(header: unknown): Lang {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return DEFAULT_LANG;
  const short = value.trim().toLowerCase().slice(0, 2);
  return (LANGS as readonly string[]).includes(short) ? (short as Lang) : DEFAULT_LANG;
}

export function translate(key: MessageKey, lang: Lang, params: MessageParams = {}): string {
  const template = MESSAGES[key][lang];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
